/* hnm-run -- smpirun with an hnm network model.
 *
 *   hnm-run [--model NAME|FILE[:k=v,...]] [--explain] [--dry-run] [SMPIRUN-ARGS...] PROGRAM [ARGS...]
 *
 * hnm-run's own options are recognised anywhere before the program name
 * (before a "--", if any); everything else before the program goes to smpirun
 * unchanged, and everything from the program name on belongs to the program.
 * hnm-run validates the model, the platform (loaded by SimGrid through the
 * hnm-hosts helper), the hostfile and -np before anything is simulated (exit
 * 2 with a one-line message on bad input, hnm_check.h), then execs smpirun
 * with libhnm.so preloaded into the simulator only (through smpirun's
 * -wrapper, combined with the user's own -wrapper if any) and the model
 * given to the plugin as --cfg=hnm/model:SPEC (in $HNM_MODEL instead if SPEC
 * holds a character that smpirun or SimGrid would split at or expand: SimGrid
 * separates --cfg settings at ',' and blanks). Without -platform the bundled
 * default cluster is used; without -hostfile, the bundled hostfile with the
 * bundled platform, every host of the platform once with a platform of one's
 * own. The plugin, hnm-hosts and the bundled files are found relative to
 * hnm-run itself (core/hnm_home.h).
 */
#define _XOPEN_SOURCE 700
#include "hnm_check.h"
#include "hnm_home.h"
#include "hnm_input.h"
#include "hnm_model.h"
#include "hnm_model_set.h"
#include "hnm_msg.h"
#include "hnm_opt.h"
#include "hnm_out.h"
#include "hnm_routing.h"
#include "hnm_run_set.h"
#include "hnm_speed.h"
#include "hnm_version.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HNM_DEFAULT_MODEL "graphene"

/* The largest routed platform hnm-run loads: SimGrid needs about 5.6 KB per
 * host of a routed torus (366 MB for 65,536 hosts, hnm-hosts on this
 * machine), so 131,072 hosts stay under 1 GB in the check; a description
 * file of a few lines can ask for 10^8 hosts. */
#define HNM_RUN_MAX_ROUTED_HOSTS 131072UL

/* PROGRAM must be something smpirun can start: a path to an executable
 * regular file, or a name found in $PATH. 0, or -1 with the reason. */
static int run__program_check(const char *prog, char *why, size_t len)
{
  struct stat st;
  if (*prog == '\0') {
    snprintf(why, len, "empty program name");
    return -1;
  }
  if (strchr(prog, '/') == NULL) {
    const char *path = getenv("PATH");
    for (const char *p = path ? path : ""; *p;) {
      const char *e = strchr(p, ':');
      size_t n = e ? (size_t)(e - p) : strlen(p);
      char cand[PATH_MAX];
      if (n > 0 && n + strlen(prog) + 2 < sizeof cand) {
        snprintf(cand, sizeof cand, "%.*s/%s", (int)n, p, prog);
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
          return 0;
      }
      p += n + (e ? 1 : 0);
    }
    if (stat(prog, &st) == 0 && S_ISREG(st.st_mode) && access(prog, X_OK) == 0)
      return 0; /* smpirun also finds it in the current directory */
    snprintf(why, len, "not found in $PATH nor here (give its path)");
    return -1;
  }
  if (stat(prog, &st) != 0) {
    snprintf(why, len, "%s", strerror(errno));
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(why, len, "not a regular file");
    return -1;
  }
  if (access(prog, X_OK) != 0) {
    snprintf(why, len, "not executable: %s", strerror(errno));
    return -1;
  }
  return 0;
}

static const char *home_or_unknown(void)
{
  return hnm_home() != NULL ? hnm_home() : "$HNM_HOME";
}

/* The text after the option list (paths known at run time). */
static void run__notes(FILE *out)
{
  fprintf(out,
          "\n"
          "hnm-run's options may come anywhere before PROGRAM; smpirun's (-np N, -platform FILE,\n"
          "-hostfile FILE, --cfg=..., --log=...) pass through in order; PROGRAM is the first other\n"
          "argument, and everything after it is the program's. After \"--\" only smpirun's.\n"
          "--model: a bundled name (graphene, smpi-default, smpi-fixed, fluid, loggps) or a model\n"
          "file (path with '/' or ending in .xml), optionally followed by inline overrides, e.g.\n"
          "  loggps:L=5us,o=1.5us,g=0,G=0.1ns,S=64KiB  or  graphene:limiter=1.2\n"
          "or a model set (a directory NAME.set: central.xml, member-001.xml ...; overrides apply\n"
          "to every model): the program runs once per model, central first; the central run's\n"
          "output is shown, the members' discarded; stderr gets each run's simulated time, stdout\n"
          "ends with \"model set DIR: central X s, 5-95%% [A, B] s over N members\" (quantiles of the\n"
          "members' times, linear interpolation: Hyndman-Fan type 7). The whole set is checked\n"
          "first; the runs stop at the first that fails, whose status hnm-run returns.\n"
          "loggps: its ports are per host, so ranks on one host share them (ports=single: one\n"
          "message at a time per host); its L and G are absolute (the bundled ones those of the\n"
          "bundled 1 Gb/s cluster): loggps:platform takes L and G from each message's route. A\n"
          "model whose absolute values are 2x off the platform's route gets one line of note.\n"
          "--tcmalloc: preload tcmalloc into the simulator: same results, faster allocation for\n"
          "many ranks (1.36x on a 1024-rank gcr), but it aborts some unmodified programs (\"free\n"
          "invalid pointer\" with SMPI's privatization): off by default, see docs/scale.md.\n"
          "--fast: SMPI's eager and detached sends keep a list whose every removal walks all\n"
          "messages in flight (SimGrid 3.32), so runs of thousands of ranks slow down\n"
          "quadratically; --fast sends everything rendez-vous and puts the send and receive\n"
          "overheads of eager and detached messages on the wire. Receivers complete as in\n"
          "the exact run; a blocking sender is held until its message arrives. It also uses\n"
          "SimGrid's network/optim:Lazy (mended, as below).\n"
          "Error and speed measured per skeleton in docs/scale.md.\n"
          "\n"
          "Checked before anything runs (exit 2, one line): the model; the platform, loaded\n"
          "by SimGrid (hnm-hosts); the hostfile (HOST or HOST:N per line, hosts of the\n"
          "platform); -np, a whole number from 1 up. Beyond the hostfile's capacity (its\n"
          "lines, HOST:N counting N) ranks wrap around as with smpirun: rank i runs on place\n"
          "i mod capacity (one line of note on stderr).\n"
          "Computation: the CPU time each rank spends between MPI calls is measured on this\n"
          "machine (SimGrid's smpi/simulate-computation:yes) and injected as that many seconds\n"
          "x smpi/host-speed flop, executed at the host's speed. hnm-run sets smpi/host-speed\n"
          "(SimGrid's default, 20000f, makes a measured second 20 us on a 1 Gf host) to, first\n"
          "that applies: your --cfg=smpi/host-speed:V; the platform's <config> value (written\n"
          "by hnm-calibrate machine); the speed of the hosts that run ranks, so that a second\n"
          "measured here is a second on such a host (hosts of different speeds: the fastest's,\n"
          "slower hosts take proportionally longer). --explain prints the factor. This holds\n"
          "for every model, smpi-default included (--cfg=smpi/host-speed:20000f is plain\n"
          "smpirun's). Measured times vary from run to run: for reproducible, network-only\n"
          "times add --cfg=smpi/simulate-computation:no (hnm-compare does unless told\n"
          "otherwise; smpi_execute_flops() calls still count).\n"
          "network/optim: SimGrid's default, Lazy, for every model but loggps (Full: the\n"
          "port order of same-instant transfers). SimGrid 3.32's Lazy can overload a link\n"
          "when flows start at the same instant (docs/lazy-bug/README.md); the plugin mends\n"
          "it, or falls back to Full if it cannot (and says so), except for smpi-default,\n"
          "which stays plain smpirun, defect included (smpi-fixed: the same model, mended).\n"
          "A --cfg=network/optim:X on the command line wins.\n"
          "Stack guard pages: each rank's stack costs two memory mappings with SimGrid's\n"
          "guard page; when the ranks would need more than vm.max_map_count allows (about\n"
          "2.2 per rank), hnm-run adds --cfg=contexts/guard-size:0 and says so (unless\n"
          "a contexts/guard-size is given); see docs/scale.md, \"Memory mappings\".\n"
          "\n"
          "Without -platform, the bundled default platform is used, with its hostfile\n"
          "unless -hostfile is given; -platform without -hostfile places ranks on every\n"
          "host of the platform, once. The bundled platform:\n"
          "  %s/%s/default.xml\n"
          "Bundled models live in %s (override with $HNM_MODEL_DIR);\n"
          "the plugin is %s/%s (override with $HNM_PLUGIN).\n"
          "These paths are relative to hnm's home, %s\n"
          "(found next to hnm-run; override with $HNM_HOME, the installation prefix).\n"
          "The plugin's SimGrid settings (hnm/model, ...): hnm-run PROGRAM --cfg-help.\n"
          "Exit status: 2 on bad input (nothing simulated), else smpirun's (a model set's: see --model):\n"
          "MPI_Abort's error code when a rank calls it, 1 on a deadlock or when --link-load cannot\n"
          "be written (a last line on stderr says which; docs/reliability.md).\n",
          home_or_unknown(), HNM_HOME_PLATFORMS, hnm_model_dir(), home_or_unknown(), HNM_HOME_PLUGIN,
          home_or_unknown());
}

/* smpirun options that take a value (so that their value is not mistaken for
 * the program name while scanning). */
static int smpirun_takes_value(const char *opt)
{
  static const char *const with_value[] = {"-platform", "-hostfile", "-machinefile", "-np", "-n", "-bandwidth",
                                           "-latency", "-tmpdir", "-wrapper", "-trace-file", "-trace-comment",
                                           "-trace-comment-file", "-replay", NULL};
  for (int i = 0; with_value[i] != NULL; i++)
    if (strcmp(opt, with_value[i]) == 0)
      return 1;
  return 0;
}

/* Options that hnm owns through the model: setting them too is a conflict. */
static const char *conflicting_cfg(const char *arg)
{
  static const char *const owned[] = {"smpi/bw-factor", "smpi/lat-factor", "smpi/os", "smpi/or", "smpi/ois",
                                      "smpi/async-small-thresh", "smpi/send-is-detached-thresh", "hnm/model",
                                      NULL};
  if (strncmp(arg, "--cfg=", 6) != 0)
    return NULL;
  for (int i = 0; owned[i] != NULL; i++) {
    size_t n = strlen(owned[i]);
    if (strncmp(arg + 6, owned[i], n) == 0 && arg[6 + n] == ':')
      return owned[i];
  }
  return NULL;
}

/* --link-load FILE: libhnm.so writes FILE at the end of the simulation
 * ($HNM_LINK_LOAD, absolute) and reads link roles against the topology in
 * $HNM_LINK_TOPOLOGY ("TORUS 8,8,8", "hnm-dragonfly 3,4;4,3;5,1;2"), taken
 * from the routed description or from the platform's first <cluster>. */
static int set_link_load(const char *file, const char *routed, const char *platform)
{
  char dir[PATH_MAX], abs[PATH_MAX + 256], topo[600] = "";
  const char *slash = strrchr(file, '/');
  const char *base = slash ? slash + 1 : file;
  if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
    return hnm_msg_error("--link-load: '%s' is not a file name", file);
  snprintf(abs, sizeof abs, "%.*s", slash ? (int)(slash - file) + 1 : 1, slash ? file : ".");
  if (realpath(abs, dir) == NULL)
    return hnm_msg_error("--link-load: directory of '%s': %s", file, strerror(errno));
  snprintf(abs, sizeof abs, "%s/%s", dir, base);
  if (routed != NULL) {
    struct hnm_rnet_desc d;
    char err[512], shape[512];
    if (hnm_rnet_desc_read(routed, &d, err, sizeof err) == 0 && hnm_topo_parameters(&d.topo, shape, sizeof shape) == 0)
      snprintf(topo, sizeof topo, "hnm-%s %s",
               d.topo.family == HNM_TOPO_DRAGONFLY ? "dragonfly"
               : d.topo.family == HNM_TOPO_FATTREE ? "fattree"
                                                   : "torus",
               shape);
  } else {
    /* The first <cluster topology="..." topo_parameters="..."> near the top. */
    static char head[65536];
    char t[64], p[512];
    FILE *f = fopen(platform, "r");
    size_t n = f ? fread(head, 1, sizeof head - 1, f) : 0;
    if (f)
      fclose(f);
    head[n] = '\0';
    const char *a = strstr(head, " topology=\""), *b = strstr(head, " topo_parameters=\"");
    if (a && b && sscanf(a, " topology=\"%63[^\"]\"", t) == 1 && sscanf(b, " topo_parameters=\"%511[^\"]\"", p) == 1)
      snprintf(topo, sizeof topo, "%s %s", t, p);
  }
  if (setenv("HNM_LINK_LOAD", abs, 1) != 0 || (topo[0] && setenv("HNM_LINK_TOPOLOGY", topo, 1) != 0))
    return hnm_msg_error("--link-load: %s", strerror(errno));
  return 0;
}

/* --model: one model per run; a second --model is refused rather than
 * silently replacing the first. */
static int run__model(void *ctx, const char *arg, char *err, size_t errlen)
{
  const char **spec = ctx;
  if (spec[1] != NULL) {
    snprintf(err, errlen, "given twice ('%s', then '%s')", spec[1], arg);
    return -1;
  }
  spec[0] = spec[1] = arg;
  return 0;
}

/* hnm-run's command line. hnm-run's own options (OPTS) may come anywhere
 * before the program; smpirun's options -- a single dash (with their value
 * when they take one, smpirun_takes_value()), --cfg=..., --log=... -- pass
 * through in order; the first other argument is the program, and it and
 * everything after it belong to smpirun's command line. "--" ends hnm-run's
 * options (it is dropped; what follows is smpirun's). OWN receives argv[0]
 * and hnm-run's options with their values, for hnm_opt_parse(); REST the
 * rest. Both have room for argc + 1 pointers. */
static void run__split(int argc, char **argv, const struct hnm_opt *opts, char **own, int *nown, char **rest,
                       int *nrest)
{
  int no = 0, nr = 0, ours = 1;
  own[no++] = argv[0];
  for (int j = 1; j < argc; j++) {
    const char *a = argv[j];
    if (!ours) {
      rest[nr++] = argv[j];
    } else if (strcmp(a, "--") == 0) {
      ours = 0;
    } else if (strcmp(a, "-h") == 0 ||
               (strncmp(a, "--", 2) == 0 && strncmp(a, "--cfg=", 6) != 0 && strncmp(a, "--log=", 6) != 0)) {
      /* Ours (getopt_long reports the unknown ones); its value with it. */
      own[no++] = argv[j];
      size_t len = strcspn(a + 2, "=");
      const struct hnm_opt *hit = NULL;
      int hits = 0;
      for (const struct hnm_opt *o = opts; o->name != NULL && a[1] == '-'; o++)
        if (strncmp(o->name, a + 2, len) == 0) {
          hit = o;
          hits += 1 + (strlen(o->name) == len) * 100; /* an exact name wins over prefixes */
        }
      if (hits > 0 && (hits == 1 || hits >= 100) && a[2 + len] == '\0' && hit->arg != NULL && j + 1 < argc)
        own[no++] = argv[++j];
    } else if (a[0] == '-') {
      rest[nr++] = argv[j];
      if (smpirun_takes_value(a) && j + 1 < argc)
        rest[nr++] = argv[++j];
    } else {
      ours = 0; /* the program */
      rest[nr++] = argv[j];
    }
  }
  own[no] = NULL;
  rest[nr] = NULL;
  *nown = no;
  *nrest = nr;
}

/* Does a run of MODEL need network/optim:Full? Only LogGPS (port order of
 * same-instant transfers): the plugin mends SimGrid 3.32's lazy update for
 * max-min models, or falls back to Full itself (docs/lazy-bug/README.md).
 * The platform plays no part (hnm_model_needs_full_update()). */
static int needs_full_update(const hnm_model *model)
{
  return hnm_model_needs_full_update(model);
}

/* Memory mappings a run of NP ranks needs, per rank: SimGrid allocates
 * each rank's stack on the heap and makes its first page a PROT_NONE guard,
 * which splits the heap mapping, so every stack costs two mappings; 10%
 * more for the shared-malloc blocks, libraries and heap (measured: 2.1 per
 * rank on a 2,048-rank gcr, docs/scale.md, "Memory mappings"). Beyond
 * vm.max_map_count SimGrid aborts before the first message. */
#define RUN__MAPPINGS_PER_RANK_X10 22

/* vm.max_map_count, or -1 if it cannot be read. */
static long max_map_count(void)
{
  FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
  long v = -1;
  if (f != NULL) {
    if (fscanf(f, "%ld", &v) != 1 || v <= 0)
      v = -1;
    fclose(f);
  }
  return v;
}

/* Do NP ranks need SimGrid's stack guard pages off (contexts/guard-size:0)
 * to fit in vm.max_map_count? Without guards the stacks merge into a few
 * mappings; the price is no stack-overflow guard and stacks SimGrid zeroes
 * (calloc), about 100 KB of memory per rank with 128 KiB stacks. */
static int needs_no_guard(long np, long limit)
{
  return limit > 0 && np > 0 && np * RUN__MAPPINGS_PER_RANK_X10 > limit * 10;
}

/* Everything checked before smpirun starts, once the model is known:
 * arguments after the program, the platform (loaded by SimGrid), the
 * hostfile against it, -np against the hostfile. 0, or 2 after the one-line
 * message; *full: whether the run needs network/optim:Full; *ranks: the
 * ranks smpirun will start (-np, else the places of the hostfile or
 * platform). */
static int check_run(int argc, char **argv, int program, const char *platform, const char *hostfile,
                     const char *np_text, const hnm_model *model, const char *user_speed, hnm_speed *speed,
                     int *full, long *ranks)
{
  char helper_path[4096], default_platform[4096], default_hostfile[4096];
  if (hnm_home_path(helper_path, sizeof helper_path, HNM_HOME_BIN "/hnm-hosts") != 0 ||
      hnm_home_path(default_platform, sizeof default_platform, HNM_HOME_PLATFORMS "/default.xml") != 0 ||
      hnm_home_path(default_hostfile, sizeof default_hostfile, HNM_HOME_PLATFORMS "/default.hosts") != 0)
    return hnm_msg_error("%s", helper_path);
  char err[HNM_ERRLEN];
  if (program < 0)
    return hnm_msg_error("no program to run (see hnm-run --help)");
  char pwhy[512];
  if (run__program_check(argv[program], pwhy, sizeof pwhy) != 0)
    return hnm_msg_error("program '%s': %s", argv[program], pwhy);
  /* Options after the program belong to the program: still refuse owned cfgs,
   * since smpirun steals --cfg= wherever it finds them. */
  for (int j = program + 1; j < argc; j++) {
    const char *owned = conflicting_cfg(argv[j]);
    if (owned != NULL)
      return hnm_msg_error("'%s' conflicts with --model (hnm sets %s from the model)", argv[j], owned);
  }

  long np = 0, slots = 0;
  if (np_text != NULL && hnm_check_np(np_text, &np, err, sizeof err) != 0)
    return hnm_msg_error("%s", err);
  const char *helper = getenv("HNM_HOSTS") ? getenv("HNM_HOSTS") : helper_path;
  hnm_platform_info info;
  if (hnm_check_platform(helper, platform ? platform : default_platform, &info, err, sizeof err) != 0)
    return hnm_msg_error("%s", err);
  const char *hosts_used = hostfile ? hostfile : platform ? NULL : default_hostfile;
  int rc = 0;
  if (hosts_used != NULL && hnm_check_hostfile(hosts_used, &info, &slots, err, sizeof err) != 0)
    rc = hnm_msg_error("%s", err);
  if (rc == 0 && hosts_used == NULL)
    slots = (long)info.nhosts;
  /* Beyond the capacity, SimGrid 3.32 (smpi_deployment_smpirun) deals the
   * ranks round-robin again: rank i on place i mod capacity, a place being a
   * line of the hostfile after HOST:N is unrolled into N lines, or a host of
   * the platform (in SimGrid's name order) without a hostfile. hnm-run
   * keeps that, as smpirun does, and says so. */
  if (rc == 0 && np > slots)
    hnm_msg_info("-np %ld: more ranks than the %ld places of %s%s: rank i runs on place i mod %ld, as with smpirun",
                 np, slots, hosts_used ? "hostfile " : "platform ", hosts_used ? hosts_used : platform, slots);
  if (rc == 0 && hnm_speed_choose(&info, hosts_used, np, user_speed, speed, err, sizeof err) != 0)
    rc = hnm_msg_error("platform file '%s': %s", platform ? platform : default_platform, err);
  *full = needs_full_update(model);
  *ranks = np_text != NULL ? np : slots;
  hnm_platform_info_free(&info);
  return rc;
}

/* The value of the last --cfg=NAME:VALUE among ARGV[0..ARGC) (smpirun
 * takes --cfg= anywhere, even among the program's arguments), or NULL. */
static const char *cfg_value(int argc, char **argv, const char *name)
{
  const char *v = NULL;
  size_t n = strlen(name);
  for (int j = 0; j < argc; j++)
    if (strncmp(argv[j], "--cfg=", 6) == 0 && strncmp(argv[j] + 6, name, n) == 0 && argv[j][6 + n] == ':')
      v = argv[j] + 7 + n;
  return v;
}

/* --explain's second part: how computation is counted on PLATFORM (NULL:
 * the bundled one) with HOSTFILE and -np. 0, or 2 after the message. */
static int explain_speed(const char *platform, const char *hostfile, const char *np_text, const char *user_speed,
                         int simulate)
{
  char helper_path[4096], default_platform[4096], default_hostfile[4096];
  if (hnm_home_path(helper_path, sizeof helper_path, HNM_HOME_BIN "/hnm-hosts") != 0 ||
      hnm_home_path(default_platform, sizeof default_platform, HNM_HOME_PLATFORMS "/default.xml") != 0 ||
      hnm_home_path(default_hostfile, sizeof default_hostfile, HNM_HOME_PLATFORMS "/default.hosts") != 0)
    return hnm_msg_error("%s", helper_path);
  const char *helper = getenv("HNM_HOSTS") ? getenv("HNM_HOSTS") : helper_path;
  const char *hosts_used = hostfile ? hostfile : platform ? NULL : default_hostfile;
  char err[HNM_ERRLEN];
  hnm_platform_info info;
  long np = 0, slots = 0;
  if (np_text != NULL && hnm_check_np(np_text, &np, err, sizeof err) != 0)
    return hnm_msg_error("%s", err);
  if (hnm_check_platform(helper, platform ? platform : default_platform, &info, err, sizeof err) != 0)
    return hnm_msg_error("%s", err);
  hnm_speed speed;
  int rc = 0;
  if (hosts_used != NULL && hnm_check_hostfile(hosts_used, &info, &slots, err, sizeof err) != 0)
    rc = hnm_msg_error("%s", err);
  else if (hnm_speed_choose(&info, hosts_used, np, user_speed, &speed, err, sizeof err) != 0)
    rc = hnm_msg_error("platform file '%s': %s", platform ? platform : default_platform, err);
  hnm_platform_info_free(&info);
  if (rc == 0)
    hnm_speed_explain(&speed, simulate, stdout);
  return rc;
}

int main(int argc, char **argv)
{
  const char *spec = getenv("HNM_DEFAULT_MODEL") ? getenv("HNM_DEFAULT_MODEL") : HNM_DEFAULT_MODEL;
  int explain = 0, dry_run = 0, tcmalloc = 0, no_tcmalloc = 0, fast = 0;
  const char *link_load = NULL;
  const struct hnm_opt opts[] = {
    {.name = "model", .kind = HNM_OPT_CALL, .arg = "SPEC", .help = "network model: a bundled name or a file, with overrides (see below)", .fn = run__model},
    {.name = "explain", .kind = HNM_OPT_FLAG, .help = "print the effective model parameters and how computation is counted, and exit", .value = &explain},
    {.name = "dry-run", .kind = HNM_OPT_FLAG, .help = "validate everything and print the smpirun command, run nothing", .value = &dry_run},
    {.name = "tcmalloc", .kind = HNM_OPT_FLAG, .help = "preload tcmalloc into the simulator (off by default: see below)", .value = &tcmalloc},
    {.name = "fast", .kind = HNM_OPT_FLAG, .help = "fast mode for the largest runs: every message rendez-vous, overheads on the wire (not exact: docs/scale.md)", .value = &fast},
    {.name = "no-tcmalloc", .kind = HNM_OPT_FLAG, .help = "do not preload tcmalloc (the default)", .value = &no_tcmalloc},
    {.name = "link-load", .kind = HNM_OPT_STRING, .arg = "FILE", .help = "write per-link load (CSV) to FILE at the end (docs/experiments.md)", .value = &link_load},
    {.name = NULL}};
  const char *given[2] = {spec, NULL}; /* the spec, the --model given (run__model()) */
  const struct hnm_opt_cmd cmd = {"hnm-run", "[OPTIONS] [SMPIRUN-OPTIONS] PROGRAM [ARGS...]",
                                  "Run an MPI program under SimGrid's smpirun with an hnm network model "
                                  "(default model: " HNM_DEFAULT_MODEL ", or $HNM_DEFAULT_MODEL).",
                                  NULL, run__notes, 0, given};
  hnm_msg_init("hnm-run");
  /* Static: they live until exec or exit, whatever the path. */
  static char **own, **rest;
  own = calloc((size_t)argc + 1, sizeof *own);
  rest = calloc((size_t)argc + 1, sizeof *rest);
  int nown, nrest;
  if (own == NULL || rest == NULL)
    return hnm_msg_error("out of memory");
  run__split(argc, argv, opts, own, &nown, rest, &nrest);
  int first = hnm_opt_parse(&cmd, opts, nown, own);
  if (first < 0)
    return hnm_opt_status(first);
  spec = given[0];
  char err[HNM_ERRLEN];
  /* A model set: checked whole now, the central model stands for the set
   * in every check below, and each model runs in turn at the end. */
  static hnm_model_set *set;
  if (hnm_model_set_is(spec)) {
    set = hnm_model_set_open(spec, err, sizeof err);
    if (set == NULL) {
      return hnm_msg_error("%s", err);
    }
    spec = set->specs[0];
  }
  tcmalloc = tcmalloc && !no_tcmalloc;
  argc = nrest; /* from here on, argv holds smpirun's arguments and the program */
  argv = rest;
  int i = 0;

  hnm_model *model = hnm_model_parse_spec(spec, err, sizeof err);
  if (model == NULL) {
    return hnm_msg_error("%s", err);
  }
  struct hnm_loggps fast_loggps;
  if (fast && hnm_model_loggps(model, &fast_loggps)) {
    hnm_model_free(model);
    return hnm_msg_error("--fast: model '%s' is LogGPS, whose messages cost O(1) each already; fast mode applies to "
                "max-min models (hybrid, fluid)",
                spec);
  }
  struct hnm_rma fast_rma;
  if (fast && hnm_model_rma(model, &fast_rma)) {
    hnm_model_free(model);
    return hnm_msg_error("--fast: model '%s' has one-sided costs (<rma>), which fast mode would put on the wire as "
                "point-to-point overheads; drop --fast or the model's <rma>",
                spec);
  }
  if (explain) {
    hnm_model_explain(model, stdout);
    if (set != NULL)
      printf("model set %s: the central model above and %zu members (member-001.xml ...)\n", set->dir,
             set->nmembers);
    if (fast)
      printf("fast mode (--fast): every message rendez-vous; messages the model sends eagerly or detached carry\n"
             "  their send and receive overheads as latency (docs/scale.md)\n");
    fflush(stdout);
  }

  /* Scan smpirun's arguments: platform, hostfile, -np, wrapper, program. */
  const char *platform = NULL, *hostfile = NULL, *wrapper = NULL, *np_text = NULL;
  int program = -1, rc = 0;
  for (int j = i; j < argc && rc == 0; j++) {
    const char *a = argv[j];
    const char *owned = conflicting_cfg(a);
    if (owned != NULL) {
      rc = hnm_msg_error("'%s' conflicts with --model (hnm sets %s from the model)", a, owned);
    } else if (a[0] != '-') {
      program = j;
      break;
    } else if (smpirun_takes_value(a)) {
      if (j + 1 >= argc) {
        rc = hnm_msg_error("smpirun option %s needs a value", a);
        break;
      }
      const char **slot = NULL;
      if (strcmp(a, "-platform") == 0)
        slot = &platform;
      else if (strcmp(a, "-hostfile") == 0 || strcmp(a, "-machinefile") == 0)
        slot = &hostfile;
      else if (strcmp(a, "-np") == 0 || strcmp(a, "-n") == 0)
        slot = &np_text;
      else if (strcmp(a, "-wrapper") == 0)
        slot = &wrapper;
      if (slot != NULL && *slot != NULL)
        rc = hnm_msg_error("%s given twice: give it once", a);
      else if (slot != NULL)
        *slot = argv[j + 1];
      j++;
    }
  }
  /* A routed platform (hnm-platform --routing) is a description that hnm's
   * platform library builds: SimGrid gets the library as -platform and the
   * description in $HNM_ROUTED_PLATFORM (docs/platforms.md, "Routing"); the
   * check below loads it the same way. */
  char platform_lib[4096], routed[PATH_MAX];
  int is_routed = 0;
  if (rc == 0 && platform != NULL) {
    char why[512];
    if (hnm_input_check(platform, why, sizeof why) != 0)
      rc = hnm_msg_error("platform file '%s': %s", platform, why);
    else
      is_routed = hnm_rnet_is_description(platform);
  }
  if (rc == 0 && is_routed) {
    struct hnm_rnet_desc desc;
    char derr[1024], why[512];
    if (hnm_rnet_desc_read(platform, &desc, derr, sizeof derr) != 0)
      rc = hnm_msg_error("%s", derr);
    else if (hnm_topo_hosts(&desc.topo) > HNM_RUN_MAX_ROUTED_HOSTS) {
      char msg[600];
      snprintf(msg, sizeof msg, "%lu hosts, more than the %lu hnm-run loads", hnm_topo_hosts(&desc.topo),
               HNM_RUN_MAX_ROUTED_HOSTS);
      rc = hnm_msg_error("platform file '%s': shape: %s (about 5.6 KB of memory per host)", platform, msg);
    }
    else if (realpath(platform, routed) == NULL)
      rc = hnm_msg_error("cannot resolve platform file '%s': %s", platform, strerror(errno));
    else if (getenv("HNM_PLATFORM_LIB") != NULL)
      snprintf(platform_lib, sizeof platform_lib, "%s", getenv("HNM_PLATFORM_LIB"));
    else if (hnm_home_path(platform_lib, sizeof platform_lib, "lib/libhnmplatform.so") != 0)
      rc = hnm_msg_error("%s", platform_lib);
    if (rc == 0 && hnm_input_check(platform_lib, why, sizeof why) != 0)
      rc = hnm_msg_error("hnm's platform library '%s': %s (build it, or set HNM_PLATFORM_LIB)", platform_lib, why);
    if (rc == 0 && setenv("HNM_ROUTED_PLATFORM", routed, 1) != 0)
      rc = hnm_msg_error("cannot set HNM_ROUTED_PLATFORM: %s", strerror(errno));
  }
  /* --link-load is written at the end of the simulation: a place it cannot
   * be written to, or one of the inputs, is refused now. */
  if (rc == 0 && link_load != NULL) {
    char lerr[1200];
    const char *named[4] = {platform, hostfile, program >= 0 ? argv[program] : NULL, spec};
    if (hnm_out_check(link_load, "--link-load", lerr, sizeof lerr) != 0)
      rc = hnm_msg_error("%s", lerr);
    for (int k = 0; rc == 0 && k < 4; k++)
      if (named[k] != NULL && hnm_out_same_file(link_load, named[k]))
        rc = hnm_msg_error("--link-load: '%s' is an input of the run (%s)", link_load, named[k]);
  }
  /* smpi/host-speed: the user's, else chosen from the platform
   * (hnm_speed.h); smpi/simulate-computation only for --explain's text. */
  const char *user_speed = cfg_value(argc, argv, "smpi/host-speed");
  const char *simcomp = cfg_value(argc, argv, "smpi/simulate-computation");
  int simulate = simcomp == NULL || !(strcmp(simcomp, "no") == 0 || strcmp(simcomp, "0") == 0 ||
                                      strcmp(simcomp, "false") == 0 || strcmp(simcomp, "off") == 0);
  if (explain) {
    hnm_model_free(model);
    return rc != 0 ? rc : explain_speed(is_routed ? platform_lib : platform, hostfile, np_text, user_speed, simulate);
  }
  int full = 0;
  long ranks = 0;
  hnm_speed speed;
  memset(&speed, 0, sizeof speed);
  if (rc == 0)
    rc = check_run(argc, argv, program, is_routed ? platform_lib : platform, hostfile, np_text, model, user_speed,
                   &speed, &full, &ranks);
  hnm_model_free(model);
  if (rc != 0)
    return rc;
  char cfg_speed[96] = "";
  if (speed.text[0] != '\0')
    snprintf(cfg_speed, sizeof cfg_speed, "--cfg=smpi/host-speed:%s", speed.text);

  char plugin_path[4096], default_platform[4096], default_hostfile[4096];
  if (hnm_home_path(plugin_path, sizeof plugin_path, HNM_HOME_PLUGIN) != 0 ||
      hnm_home_path(default_platform, sizeof default_platform, HNM_HOME_PLATFORMS "/default.xml") != 0 ||
      hnm_home_path(default_hostfile, sizeof default_hostfile, HNM_HOME_PLATFORMS "/default.hosts") != 0)
    return hnm_msg_error("%s", plugin_path);
  if (link_load != NULL &&
      set_link_load(link_load, is_routed ? platform : NULL, platform != NULL ? platform : default_platform) != 0)
    return 2;
  const char *plugin = getenv("HNM_PLUGIN") ? getenv("HNM_PLUGIN") : plugin_path;
  char why[512];
  if (hnm_input_check(plugin, why, sizeof why) != 0)
    return hnm_msg_error("the hnm plugin '%s': %s (build it, or set HNM_PLUGIN)", plugin, why);
  if (strchr(plugin, ' ') != NULL)
    return hnm_msg_error("the plugin path '%s' contains a space, which smpirun's -wrapper cannot carry", plugin);

  /* tcmalloc speeds up SMPI's many small allocations (bench: 1.36x on a
   * 1024-rank gcr) without changing simulated results, but with SMPI's
   * privatization (smpirun's default) an unmodified program can free a
   * pointer tcmalloc did not allocate and abort: opt-in only. */
  const char *tc = "";
#ifdef HNM_TCMALLOC_PATH
  if (tcmalloc) {
    if (hnm_input_check(HNM_TCMALLOC_PATH, why, sizeof why) != 0 || strchr(HNM_TCMALLOC_PATH, ' ') != NULL)
      return hnm_msg_error("--tcmalloc: cannot preload '%s': %s", HNM_TCMALLOC_PATH, why);
    tc = ":" HNM_TCMALLOC_PATH;
  }
#else
  if (tcmalloc)
    return hnm_msg_error("--tcmalloc: tcmalloc was not found when hnm was built (install libgoogle-perftools4)");
#endif

  /* Build: smpirun -wrapper "env LD_PRELOAD=plugin[:tcmalloc] [user wrapper]" [-platform P -hostfile H] args... */
  size_t wlen = strlen(plugin) + strlen(tc) + (wrapper ? strlen(wrapper) : 0) + 32;
  char *wrap = malloc(wlen);
  if (wrap == NULL)
    return hnm_msg_error("out of memory");
  snprintf(wrap, wlen, "env LD_PRELOAD=%s%s%s%s", plugin, tc, wrapper ? " " : "", wrapper ? wrapper : "");

  /* The spec goes to the plugin as a SimGrid flag, unless smpirun would
   * split or glob it (it word-splits --cfg values) or SimGrid would split
   * it (at ',' and blanks): then in the environment. */
  int spec_in_env = set != NULL || strpbrk(spec, " \t\n,*?[") != NULL;
  size_t cfg_len = strlen(spec) + sizeof "--cfg=hnm/model:";
  char *cfg_model = malloc(cfg_len);
  if (cfg_model == NULL) {
    free(wrap);
    return hnm_msg_error("out of memory");
  }
  snprintf(cfg_model, cfg_len, "--cfg=hnm/model:%s", spec);

  char **args = calloc((size_t)argc + 18, sizeof(char *));
  if (args == NULL) {
    free(wrap);
    return hnm_msg_error("out of memory");
  }
  int n = 0;
  args[n++] = "smpirun";
  args[n++] = "-wrapper";
  args[n++] = wrap;
  if (platform == NULL) {
    args[n++] = "-platform";
    args[n++] = default_platform;
  }
  if (hostfile == NULL && platform == NULL) {
    args[n++] = "-hostfile";
    args[n++] = default_hostfile;
  }
  if (cfg_speed[0] != '\0')
    args[n++] = cfg_speed;
  /* Full where Lazy's order matters (needs_full_update()), unless the
   * command line chose. */
  int optim_given = 0;
  for (int j = i; j < argc; j++)
    if (strncmp(argv[j], "--cfg=network/optim:", 20) == 0)
      optim_given = 1;
  /* --fast uses SimGrid's Lazy update (mended by the plugin). */
  if (fast && !optim_given)
    args[n++] = "--cfg=network/optim:Lazy";
  else if (full && !optim_given)
    args[n++] = "--cfg=network/optim:Full";
  /* Stack guard pages off where the ranks' stacks would exceed the
   * process's memory mappings (needs_no_guard()), unless the command line
   * chose. */
  int guard_given = 0;
  for (int j = i; j < argc; j++)
    if (strncmp(argv[j], "--cfg=contexts/guard-size:", 26) == 0)
      guard_given = 1;
  long limit = max_map_count();
  if (!guard_given && needs_no_guard(ranks, limit)) {
    args[n++] = "--cfg=contexts/guard-size:0";
    hnm_msg_note("%ld ranks need about %ld memory mappings with stack guard pages, more than "
            "vm.max_map_count (%ld): adding --cfg=contexts/guard-size:0 (no stack guard pages; to keep them, "
            "raise the limit as root: sysctl -w vm.max_map_count=%ld)",
            ranks, ranks * RUN__MAPPINGS_PER_RANK_X10 / 10, limit, ranks * 4);
  }
  if (!spec_in_env)
    args[n++] = cfg_model;
  if (fast)
    args[n++] = "--cfg=hnm/fast:yes";
  if (set != NULL) {
    /* SimGrid's final "Simulated time: X seconds." line (smpi_utils.cpp). */
    args[n++] = "--cfg=smpi/display-timing:yes";
    args[n++] = "--log=smpi_utils.thres:info";
  }
  for (int j = i; j < argc; j++) {
    /* smpirun's -wrapper is folded into ours; from the program on,
     * everything is the program's, spelled like an option or not. */
    if (j < program && strcmp(argv[j], "-wrapper") == 0) {
      j++;
      continue;
    }
    if (is_routed && strcmp(argv[j], "-platform") == 0 && j + 1 < argc && j < program) {
      args[n++] = argv[j++];
      args[n++] = platform_lib;
      continue;
    }
    args[n++] = argv[j];
  }
  args[n] = NULL;

  if (spec_in_env && setenv("HNM_MODEL", spec, 1) != 0) {
    free(args);
    free(wrap);
    free(cfg_model);
    return hnm_msg_error("cannot set HNM_MODEL: %s", strerror(errno));
  }
  if (dry_run) {
    /* One line per run: a model set's models in the order they run. */
    for (size_t k = 0; k < (set != NULL ? set->nmembers + 1 : 1); k++) {
      if (is_routed)
        printf("HNM_ROUTED_PLATFORM='%s' ", routed);
      if (spec_in_env)
        printf("HNM_MODEL='%s' ", set != NULL ? set->specs[k] : spec);
      for (int j = 0; j < n; j++)
        printf(strchr(args[j], ' ') ? "%s'%s'" : "%s%s", j > 0 ? " " : "", args[j]);
      printf("\n");
    }
    free(args);
    free(wrap);
    free(cfg_model);
    return 0;
  }
  fflush(stdout);
  if (set != NULL) {
    int status = hnm_run_set(set, args);
    free(args);
    free(wrap);
    free(cfg_model);
    hnm_model_set_free(set);
    return status;
  }
  execvp("smpirun", args);
  hnm_msg_error("cannot run smpirun: %s (install simgrid)", strerror(errno));
  free(args);
  free(wrap);
  free(cfg_model);
  return 127;
}
