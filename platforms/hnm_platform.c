/* hnm-platform -- write SimGrid 4.1 platform files and their hostfiles.
 *
 *   hnm-platform FAMILY [--preset NAME] [SHAPE OPTIONS] [LINK OPTIONS]
 *                [-o FILE] [--hostfile FILE] [--placement linear|round-robin]
 *
 * One subcommand per family (cluster, torus, fattree, dragonfly, bgq); every
 * parameter is an option with a unit and a default (hnm-platform FAMILY
 * --help). The shapes, presets, scaling and rank placement are computed by
 * hnm_topo.c; hnm_platform_options.c parses the command line,
 * hnm_platform_config.c checks it, hnm_platform_write.c writes the XML through
 * core's XML writer, which streams: memory stays bounded whatever the size
 * (the cluster family writes C x (C-1) routes one at a time).
 *
 * Nothing is written on bad input: everything is validated first, then both
 * files are written to temporaries in their target directories and renamed
 * at the end; on any error the temporaries are removed. Exit status: 0; 2 on
 * bad input (one line on stderr naming the option) or an output that cannot
 * be created; 1 if writing fails (a full disk).
 * docs/platforms.md describes the files produced.
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_quantity.h"
#include "hnm_topo.h"
#include "hnm_units.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "hnm_platform_options.h"
#include "hnm_msg.h"
#include "hnm_platform_config.h"
#include "hnm_platform_write.h"

int main(int argc, char **argv)
{
  struct plat_cli cli;
  struct plat_config cfg;
  int rc;

  hnm_msg_init(PROG);
  char err[HNM_ERRLEN];
  int fam = plat_family_command(argc, argv, err, sizeof err);
  if (fam < 0)
    return fam == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", err);
  memset(&cli, 0, sizeof cli);
  cli.fam = &plat_families[fam];
  rc = plat_cli_parse(&cli, argc, argv, 2, err, sizeof err);
  if (rc != 0)
    return rc > 0 ? HNM_EXIT_OK : hnm_msg_error("%s", err);
  if (plat_build_config(&cli, &cfg, err, sizeof err) != 0)
    return hnm_msg_error("%s", err);
  /* Valid input: say what departs from the request, then write. */
  if (cfg.preset != NULL && !hnm_routing_is_builtin(cfg.routing) && cfg.topo.family == HNM_TOPO_DRAGONFLY)
    hnm_msg_note("%s with --routing: the group shape of the XML preset, with its %lu global links between two "
                 "groups kept separate, one per router",
                 cfg.preset->name, cfg.topo.blue);
  else if (cfg.preset != NULL && cfg.preset->note != NULL)
    hnm_msg_note("%s", cfg.preset->note);
  if (cfg.scaled[0] != '\0')
    hnm_msg_info("%s", cfg.scaled);
  if (cfg.seed_unused)
    hnm_msg_note("--routing-seed: routing '%s' makes no random choice; the seed is ignored",
                 cfg.routing == HNM_ROUTING_BUILTIN ? "none (SimGrid's zone)" : hnm_routing_name(cfg.routing));
  rc = plat_generate(&cfg, err, sizeof err);
  if (rc == HNM_EXIT_USAGE)
    return hnm_msg_error("%s", err);
  return rc == HNM_EXIT_OK ? HNM_EXIT_OK : hnm_msg_failure("%s", err);
}
