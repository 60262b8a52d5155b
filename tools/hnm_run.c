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
#define _POSIX_C_SOURCE 200809L
#include "hnm_check.h"
#include "hnm_home.h"
#include "hnm_input.h"
#include "hnm_model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HNM_VERSION "0.1.0"
#define HNM_DEFAULT_MODEL "graphene"

static const char *home_or_unknown(void)
{
  return hnm_home() != NULL ? hnm_home() : "$HNM_HOME";
}

static void usage(FILE *out)
{
  fprintf(out,
          "Usage: hnm-run [OPTIONS] [--] [SMPIRUN-OPTIONS] PROGRAM [ARGS...]\n"
          "Run an MPI program under SimGrid's smpirun with an hnm network model.\n"
          "\n"
          "Options (anywhere before PROGRAM):\n"
          "  --model SPEC    model: a bundled name (graphene, smpi-default, fluid, loggps),\n"
          "                  a model file (path with '/' or ending in .xml), optionally\n"
          "                  followed by inline overrides, e.g.\n"
          "                  loggps:L=5us,o=1.5us,g=0,G=0.1ns,S=64KiB  or  graphene:limiter=1.2\n"
          "                  (default: %s)\n"
          "  --explain       print the effective model parameters and exit\n"
          "  --dry-run       validate everything and print the smpirun command, run nothing\n"
          "  --tcmalloc      preload tcmalloc into the simulator: same results, faster\n"
          "                  allocation for many ranks (1.36x on a 1024-rank gcr), but it\n"
          "                  aborts some unmodified programs (\"free invalid pointer\" with\n"
          "                  SMPI's privatization); off by default, see docs/scale.md\n"
          "  --no-tcmalloc   do not preload it (the default)\n"
          "  -h, --help      this help\n"
          "  --version       print the version\n"
          "\n"
          "Checked before anything runs (exit 2, one line): the model; the platform, loaded\n"
          "by SimGrid; the hostfile (HOST or HOST:N per line, hosts of the platform); -np, a\n"
          "whole number from 1 to the hostfile's capacity (to put several ranks on a host,\n"
          "say so: HOST:N).\n"
          "Without -platform, the bundled default platform is used:\n"
          "  %s/%s/default.xml\n"
          "with its hostfile unless -hostfile is given; -platform without -hostfile places\n"
          "ranks on every host of the platform, once.\n"
          "Computation: SimGrid's default, smpi/simulate-computation:yes -- the CPU time of\n"
          "the program between MPI calls is measured on this machine and injected, so two\n"
          "runs differ by timing noise. For reproducible, network-only times add\n"
          "--cfg=smpi/simulate-computation:no (hnm-compare does unless told otherwise).\n"
          "network/optim: SimGrid's default (Lazy) unless the model or platform leaves\n"
          "links that never saturate (lifted limiters, FATPIPE), where hnm-run passes Full\n"
          "(Lazy shares bandwidth wrongly there, docs/models.md); a --cfg=network/optim:X\n"
          "on the command line wins.\n"
          "Bundled models live in %s (override with $HNM_MODEL_DIR);\n"
          "the plugin is %s/%s (override with $HNM_PLUGIN).\n"
          "These paths are relative to hnm's home, %s\n"
          "(found next to hnm-run; override with $HNM_HOME, the installation prefix).\n"
          "The plugin's SimGrid settings (hnm/model, ...): hnm-run PROGRAM --cfg-help.\n"
          "Exit status: 2 on bad input (nothing simulated), else smpirun's.\n",
          HNM_DEFAULT_MODEL, home_or_unknown(), HNM_HOME_PLATFORMS, hnm_model_dir(), home_or_unknown(),
          HNM_HOME_PLUGIN, home_or_unknown());
}

static int fail(const char *fmt, const char *a, const char *b)
{
  fprintf(stderr, "hnm-run: ");
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  return 2;
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

/* Does a run of MODEL on this platform need network/optim:Full? SimGrid
 * 3.32's lazy max-min update shares bandwidth wrongly when a route holds a
 * link that never saturates (docs/models.md, tests/sim/sharing.sh): a
 * FATPIPE link of the platform, every link under a contention-free model
 * (the plugin makes them FATPIPE), or node limiters the model lifts.
 * Elsewhere SimGrid's own default is kept, so that smpi-default is plain
 * smpirun. */
static int needs_full_update(const hnm_model *model, const hnm_platform_info *info)
{
  return info->fatpipe > 0 || hnm_model_contention(model) == HNM_CONTENTION_NONE ||
         (hnm_model_limiter_mode(model) == HNM_LIMITER_OFF && info->limiters > 0);
}

/* Everything checked before smpirun starts, once the model is known:
 * arguments after the program, the platform (loaded by SimGrid), the
 * hostfile against it, -np against the hostfile. 0, or 2 after the one-line
 * message; *full: whether the run needs network/optim:Full. */
static int check_run(int argc, char **argv, int program, const char *platform, const char *hostfile,
                     const char *np_text, const hnm_model *model, int *full)
{
  char helper_path[4096], default_platform[4096], default_hostfile[4096];
  if (hnm_home_path(helper_path, sizeof helper_path, HNM_HOME_BIN "/hnm-hosts") != 0 ||
      hnm_home_path(default_platform, sizeof default_platform, HNM_HOME_PLATFORMS "/default.xml") != 0 ||
      hnm_home_path(default_hostfile, sizeof default_hostfile, HNM_HOME_PLATFORMS "/default.hosts") != 0)
    return fail("%s%s", helper_path, "");
  hnm_error err;
  if (program < 0)
    return fail("no program to run%s%s (see hnm-run --help)", "", "");
  /* Options after the program belong to the program: still refuse owned cfgs,
   * since smpirun steals --cfg= wherever it finds them. */
  for (int j = program + 1; j < argc; j++) {
    const char *owned = conflicting_cfg(argv[j]);
    if (owned != NULL)
      return fail("'%s' conflicts with --model (hnm sets %s from the model)", argv[j], owned);
  }

  long np = 0, slots = 0;
  if (np_text != NULL && hnm_check_np(np_text, &np, &err) != 0)
    return fail("%s%s", err.msg, "");
  const char *helper = getenv("HNM_HOSTS") ? getenv("HNM_HOSTS") : helper_path;
  hnm_platform_info info;
  if (hnm_check_platform(helper, platform ? platform : default_platform, &info, &err) != 0)
    return fail("%s%s", err.msg, "");
  const char *hosts_used = hostfile ? hostfile : platform ? NULL : default_hostfile;
  int rc = 0;
  if (hosts_used != NULL && hnm_check_hostfile(hosts_used, &info, &slots, &err) != 0)
    rc = fail("%s%s", err.msg, "");
  if (rc == 0 && hosts_used == NULL)
    slots = (long)info.nhosts;
  if (rc == 0 && np > slots) {
    char msg[4400];
    snprintf(msg, sizeof msg, "-np %ld: more ranks than the %ld places of %s%s", np, slots,
             hosts_used ? "hostfile " : "platform ", hosts_used ? hosts_used : platform);
    rc = fail("%s%s (to put several ranks on one host, write HOST:N in the hostfile)", msg, "");
  }
  *full = needs_full_update(model, &info);
  hnm_platform_info_free(&info);
  return rc;
}

int main(int argc, char **argv)
{
  const char *spec = getenv("HNM_DEFAULT_MODEL") ? getenv("HNM_DEFAULT_MODEL") : HNM_DEFAULT_MODEL;
  int explain = 0, dry_run = 0, tcmalloc = 0, model_given = 0;
  const char *platform = NULL, *hostfile = NULL, *wrapper = NULL, *np_text = NULL;
  /* smpirun's arguments before the program, in order (hnm-run's own taken
   * out). Static: it lives until exec or exit, whatever the path. */
  static char **smpi;
  smpi = calloc((size_t)argc + 1, sizeof *smpi);
  int nsmpi = 0, program = -1, own = 1;
  if (smpi == NULL)
    return fail("out of memory%s%s", "", "");

  for (int i = 1; i < argc && program < 0; i++) {
    const char *a = argv[i];
    if (own && strcmp(a, "--") == 0) {
      own = 0; /* from here on, smpirun's arguments only */
    } else if (own && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)) {
      usage(stdout);
      return 0;
    } else if (own && strcmp(a, "--version") == 0) {
      printf("hnm-run %s\n", HNM_VERSION);
      return 0;
    } else if (own && strcmp(a, "--explain") == 0) {
      explain = 1;
    } else if (own && strcmp(a, "--dry-run") == 0) {
      dry_run = 1;
    } else if (own && strcmp(a, "--tcmalloc") == 0) {
      tcmalloc = 1;
    } else if (own && strcmp(a, "--no-tcmalloc") == 0) {
      tcmalloc = 0;
    } else if (own && (strcmp(a, "--model") == 0 || strncmp(a, "--model=", 8) == 0)) {
      if (model_given)
        return fail("--model given twice ('%s' and '%s'): give one model", spec, a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[i + 1] : ""));
      if (a[7] == '\0' && i + 1 >= argc)
        return fail("--model needs a value (a model name or file)%s%s", "", "");
      spec = a[7] == '=' ? a + 8 : argv[++i];
      model_given = 1;
    } else if (own && strncmp(a, "--", 2) == 0 && strncmp(a, "--cfg=", 6) != 0 && strncmp(a, "--log=", 6) != 0) {
      return fail("unknown option '%s'%s (see hnm-run --help)", a, "");
    } else if (a[0] != '-') {
      program = i;
    } else {
      const char *owned = conflicting_cfg(a);
      if (owned != NULL)
        return fail("'%s' conflicts with --model (hnm sets %s from the model)", a, owned);
      if (!smpirun_takes_value(a)) {
        smpi[nsmpi++] = argv[i];
        continue;
      }
      if (i + 1 >= argc)
        return fail("smpirun option %s needs a value%s", a, "");
      const char *v = argv[++i], **slot = NULL;
      if (strcmp(a, "-platform") == 0)
        slot = &platform;
      else if (strcmp(a, "-hostfile") == 0 || strcmp(a, "-machinefile") == 0)
        slot = &hostfile;
      else if (strcmp(a, "-np") == 0 || strcmp(a, "-n") == 0)
        slot = &np_text;
      else if (strcmp(a, "-wrapper") == 0)
        slot = &wrapper;
      if (slot != NULL && *slot != NULL)
        return fail("%s given twice: give it once%s", a, "");
      if (slot != NULL)
        *slot = v;
      if (strcmp(a, "-wrapper") != 0) { /* the wrapper is folded into ours */
        smpi[nsmpi++] = argv[i - 1];
        smpi[nsmpi++] = argv[i];
      }
    }
  }

  hnm_error err;
  hnm_model *model = hnm_model_parse_spec(spec, &err);
  if (model == NULL) {
    fprintf(stderr, "hnm-run: %s\n", err.msg);
    return 2;
  }
  if (explain) {
    hnm_model_explain(model, stdout);
    hnm_model_free(model);
    return 0;
  }
  int full = 0;
  int rc = check_run(argc, argv, program, platform, hostfile, np_text, model, &full);
  hnm_model_free(model);
  if (rc != 0)
    return rc;

  if (access(argv[program], X_OK) != 0)
    return fail("cannot execute program '%s': %s", argv[program], strerror(errno));
  char why[512], plugin_path[4096], default_platform[4096], default_hostfile[4096];
  if (hnm_home_path(plugin_path, sizeof plugin_path, HNM_HOME_PLUGIN) != 0 ||
      hnm_home_path(default_platform, sizeof default_platform, HNM_HOME_PLATFORMS "/default.xml") != 0 ||
      hnm_home_path(default_hostfile, sizeof default_hostfile, HNM_HOME_PLATFORMS "/default.hosts") != 0)
    return fail("%s%s", plugin_path, "");
  const char *plugin = getenv("HNM_PLUGIN") ? getenv("HNM_PLUGIN") : plugin_path;
  if (hnm_input_check(plugin, why, sizeof why) != 0)
    return fail("the hnm plugin '%s': %s (build it, or set HNM_PLUGIN)", plugin, why);
  if (strchr(plugin, ' ') != NULL)
    return fail("the plugin path '%s' contains a space, which smpirun's -wrapper cannot carry%s", plugin, "");

  /* tcmalloc speeds up SMPI's many small allocations (bench: 1.36x on a
   * 1024-rank gcr) without changing simulated results, but with SMPI's
   * privatization (smpirun's default) an unmodified program can free a
   * pointer tcmalloc did not allocate and abort: opt-in only. */
  const char *tc = "";
#ifdef HNM_TCMALLOC_PATH
  if (tcmalloc) {
    if (hnm_input_check(HNM_TCMALLOC_PATH, why, sizeof why) != 0 || strchr(HNM_TCMALLOC_PATH, ' ') != NULL)
      return fail("--tcmalloc: cannot preload '%s': %s", HNM_TCMALLOC_PATH, why);
    tc = ":" HNM_TCMALLOC_PATH;
  }
#else
  if (tcmalloc)
    return fail("--tcmalloc: tcmalloc was not found when hnm was built (install libgoogle-perftools4)%s%s", "", "");
#endif

  /* Build: smpirun -wrapper "env LD_PRELOAD=plugin[:tcmalloc] [user wrapper]" [-platform P] [-hostfile H] args... */
  size_t wlen = strlen(plugin) + strlen(tc) + (wrapper ? strlen(wrapper) : 0) + 32;
  char *wrap = malloc(wlen);
  char **args = calloc((size_t)argc + 10, sizeof(char *));
  if (wrap == NULL || args == NULL) {
    free(wrap);
    free(args);
    return fail("out of memory%s%s", "", "");
  }
  snprintf(wrap, wlen, "env LD_PRELOAD=%s%s%s%s", plugin, tc, wrapper ? " " : "", wrapper ? wrapper : "");
  /* The spec goes to the plugin as a SimGrid flag, unless smpirun would
   * split or glob it (it word-splits --cfg values) or SimGrid would split
   * it (at ',' and blanks): then in the environment. */
  int spec_in_env = strpbrk(spec, " \t\n,*?[") != NULL;
  size_t cfg_len = strlen(spec) + sizeof "--cfg=hnm/model:";
  char *cfg_model = malloc(cfg_len);
  if (cfg_model == NULL) {
    free(wrap);
    free(args);
    return fail("out of memory%s%s", "", "");
  }
  snprintf(cfg_model, cfg_len, "--cfg=hnm/model:%s", spec);

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
  int optim_given = 0;
  for (int j = 0; j < nsmpi; j++)
    if (strncmp(smpi[j], "--cfg=network/optim:", 20) == 0)
      optim_given = 1;
  if (full && !optim_given)
    args[n++] = "--cfg=network/optim:Full";
  if (!spec_in_env)
    args[n++] = cfg_model;
  for (int j = 0; j < nsmpi; j++)
    args[n++] = smpi[j];
  for (int j = program; j < argc; j++)
    args[n++] = argv[j];
  args[n] = NULL;
  free(smpi);

  if (spec_in_env && setenv("HNM_MODEL", spec, 1) != 0) {
    free(args);
    free(wrap);
    free(cfg_model);
    return fail("cannot set HNM_MODEL: %s%s", strerror(errno), "");
  }
  if (dry_run) {
    if (spec_in_env)
      printf("HNM_MODEL='%s' ", spec);
    for (int j = 0; j < n; j++)
      printf(strchr(args[j], ' ') ? "%s'%s'" : "%s%s", j > 0 ? " " : "", args[j]);
    printf("\n");
    free(args);
    free(wrap);
    free(cfg_model);
    return 0;
  }
  fflush(stdout);
  execvp("smpirun", args);
  fprintf(stderr, "hnm-run: cannot run smpirun: %s (install simgrid)\n", strerror(errno));
  free(args);
  free(wrap);
  free(cfg_model);
  return 127;
}
