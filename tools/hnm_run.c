/* hnm-run -- smpirun with an hnm network model.
 *
 *   hnm-run [--model NAME|FILE[:k=v,...]] [--explain] [--dry-run] [--] SMPIRUN-ARGS...
 *
 * Everything after hnm-run's own options goes to smpirun unchanged. hnm-run
 * validates the model, the platform and the hostfile before anything is
 * simulated (exit 2 with a one-line message on bad input), then execs smpirun
 * with libhnm.so preloaded into the simulator only (through smpirun's
 * -wrapper, combined with the user's own -wrapper if any) and the model
 * given to the plugin as --cfg=hnm/model:SPEC (in $HNM_MODEL instead if SPEC
 * holds a character that smpirun or SimGrid would split at or expand: SimGrid
 * separates --cfg settings at ',' and blanks). Without -platform /
 * -hostfile the bundled default cluster is used. The plugin and the bundled
 * files are found relative to hnm-run itself (core/hnm_home.h).
 */
#define _XOPEN_SOURCE 700
#include "hnm_home.h"
#include "hnm_model.h"
#include "hnm_routing.h"

#include <limits.h>

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
          "Options (before any smpirun argument):\n"
          "  --model SPEC    model: a bundled name (graphene, smpi-default, fluid, loggps),\n"
          "                  a model file (path with '/' or ending in .xml), optionally\n"
          "                  followed by inline overrides, e.g.\n"
          "                  loggps:L=5us,o=1.5us,g=0,G=0.1ns,S=64KiB  or  graphene:limiter=1.2\n"
          "                  (default: %s)\n"
          "  --explain       print the effective model parameters and exit\n"
          "  --dry-run       validate everything and print the smpirun command, run nothing\n"
          "  --link-load FILE  write FILE (CSV): for every link that carried traffic, its role,\n"
          "                  bytes, busy time, mean and peak utilisation (docs/experiments.md)\n"
          "  --no-tcmalloc   do not preload tcmalloc into the simulator (preloaded when\n"
          "                  installed: same results, faster allocation; see docs/scale.md)\n"
          "  -h, --help      this help\n"
          "  --version       print the version\n"
          "\n"
          "Without -platform/-hostfile, the bundled default platform is used:\n"
          "  %s/%s/default.xml\n"
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

static int readable(const char *path)
{
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return 0;
  fclose(f);
  return 1;
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
    return fail("--link-load: '%s' is not a file name%s", file, "");
  snprintf(abs, sizeof abs, "%.*s", slash ? (int)(slash - file) + 1 : 1, slash ? file : ".");
  if (realpath(abs, dir) == NULL)
    return fail("--link-load: directory of '%s': %s", file, strerror(errno));
  snprintf(abs, sizeof abs, "%s/%s", dir, base);
  if (routed != NULL) {
    struct hnm_rnet_desc d;
    char err[512], shape[512];
    if (hnm_rnet_desc_read(routed, &d, err, sizeof err) == 0 && hnm_topo_parameters(&d.topo, shape, sizeof shape) == 0)
      snprintf(topo, sizeof topo, "hnm-%s %s", d.topo.family == HNM_TOPO_DRAGONFLY ? "dragonfly" : "torus", shape);
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
    return fail("--link-load: %s%s", strerror(errno), "");
  return 0;
}

int main(int argc, char **argv)
{
  const char *spec = getenv("HNM_DEFAULT_MODEL") ? getenv("HNM_DEFAULT_MODEL") : HNM_DEFAULT_MODEL;
  int explain = 0, dry_run = 0, tcmalloc = 1;
  const char *link_load = NULL;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      i++;
      break;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--version") == 0) {
      printf("hnm-run %s\n", HNM_VERSION);
      return 0;
    } else if (strcmp(a, "--explain") == 0) {
      explain = 1;
    } else if (strcmp(a, "--dry-run") == 0) {
      dry_run = 1;
    } else if (strcmp(a, "--no-tcmalloc") == 0) {
      tcmalloc = 0;
    } else if (strcmp(a, "--link-load") == 0) {
      if (i + 1 >= argc || argv[i + 1][0] == '\0')
        return fail("--link-load needs a file name%s%s", "", "");
      link_load = argv[++i];
    } else if (strcmp(a, "--model") == 0) {
      if (i + 1 >= argc)
        return fail("--model needs a value (a model name or file)%s%s", "", "");
      spec = argv[++i];
    } else if (strncmp(a, "--model=", 8) == 0) {
      spec = a + 8;
    } else if (strncmp(a, "--", 2) == 0 && strncmp(a, "--cfg=", 6) != 0 && strncmp(a, "--log=", 6) != 0) {
      return fail("unknown option '%s'%s (see hnm-run --help)", a, "");
    } else {
      break;
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
  hnm_model_free(model);

  /* Scan smpirun's arguments: platform, hostfile, wrapper, program. */
  const char *platform = NULL, *hostfile = NULL, *wrapper = NULL;
  int program = -1;
  for (int j = i; j < argc; j++) {
    const char *a = argv[j];
    const char *owned = conflicting_cfg(a);
    if (owned != NULL)
      return fail("'%s' conflicts with --model (hnm sets %s from the model)", a, owned);
    if (a[0] != '-') {
      program = j;
      break;
    }
    if (smpirun_takes_value(a)) {
      if (j + 1 >= argc)
        return fail("smpirun option %s needs a value%s", a, "");
      if (strcmp(a, "-platform") == 0)
        platform = argv[j + 1];
      else if (strcmp(a, "-hostfile") == 0 || strcmp(a, "-machinefile") == 0)
        hostfile = argv[j + 1];
      else if (strcmp(a, "-wrapper") == 0)
        wrapper = argv[j + 1];
      j++;
    }
  }
  if (program < 0)
    return fail("no program to run%s%s (see hnm-run --help)", "", "");
  /* Options after the program belong to the program: still refuse owned cfgs,
   * since smpirun steals --cfg= wherever it finds them. */
  for (int j = program + 1; j < argc; j++) {
    const char *owned = conflicting_cfg(argv[j]);
    if (owned != NULL)
      return fail("'%s' conflicts with --model (hnm sets %s from the model)", argv[j], owned);
  }
  if (platform != NULL && !readable(platform))
    return fail("cannot read platform file '%s': %s", platform, strerror(errno));
  /* A routed platform (hnm-platform --routing) is a description that hnm's
   * platform library builds: SimGrid gets the library as -platform and the
   * description in $HNM_ROUTED_PLATFORM (docs/platforms.md, "Routing"). */
  char platform_lib[4096], routed[PATH_MAX];
  int is_routed = platform != NULL && hnm_rnet_is_description(platform);
  if (is_routed) {
    struct hnm_rnet_desc desc;
    char derr[1024];
    if (hnm_rnet_desc_read(platform, &desc, derr, sizeof derr) != 0)
      return fail("%s%s", derr, "");
    if (realpath(platform, routed) == NULL)
      return fail("cannot resolve platform file '%s': %s", platform, strerror(errno));
    if (getenv("HNM_PLATFORM_LIB") != NULL)
      snprintf(platform_lib, sizeof platform_lib, "%s", getenv("HNM_PLATFORM_LIB"));
    else if (hnm_home_path(platform_lib, sizeof platform_lib, "lib/libhnmplatform.so") != 0)
      return fail("%s%s", platform_lib, "");
    if (!readable(platform_lib))
      return fail("cannot read hnm's platform library '%s': %s (build it, or set HNM_PLATFORM_LIB)", platform_lib,
                  strerror(errno));
    if (setenv("HNM_ROUTED_PLATFORM", routed, 1) != 0)
      return fail("cannot set HNM_ROUTED_PLATFORM: %s%s", strerror(errno), "");
  }
  if (hostfile != NULL && !readable(hostfile))
    return fail("cannot read hostfile '%s': %s", hostfile, strerror(errno));
  if (access(argv[program], X_OK) != 0)
    return fail("cannot execute program '%s': %s", argv[program], strerror(errno));

  char plugin_path[4096], default_platform[4096], default_hostfile[4096];
  if (hnm_home_path(plugin_path, sizeof plugin_path, HNM_HOME_PLUGIN) != 0 ||
      hnm_home_path(default_platform, sizeof default_platform, HNM_HOME_PLATFORMS "/default.xml") != 0 ||
      hnm_home_path(default_hostfile, sizeof default_hostfile, HNM_HOME_PLATFORMS "/default.hosts") != 0)
    return fail("%s%s", plugin_path, "");
  if (link_load != NULL &&
      set_link_load(link_load, is_routed ? platform : NULL, platform != NULL ? platform : default_platform) != 0)
    return 2;
  const char *plugin = getenv("HNM_PLUGIN") ? getenv("HNM_PLUGIN") : plugin_path;
  if (!readable(plugin))
    return fail("cannot read the hnm plugin '%s': %s (build it, or set HNM_PLUGIN)", plugin, strerror(errno));
  if (strchr(plugin, ' ') != NULL)
    return fail("the plugin path '%s' contains a space, which smpirun's -wrapper cannot carry%s", plugin, "");

  /* tcmalloc speeds up SMPI's many small allocations (bench: 1.36x on a
   * 1024-rank gcr); the simulated results do not depend on it. */
  const char *tc = "";
#ifdef HNM_TCMALLOC_PATH
  if (tcmalloc && readable(HNM_TCMALLOC_PATH) && strchr(HNM_TCMALLOC_PATH, ' ') == NULL)
    tc = ":" HNM_TCMALLOC_PATH;
#else
  (void)tcmalloc;
#endif

  /* Build: smpirun -wrapper "env LD_PRELOAD=plugin[:tcmalloc] [user wrapper]" [-platform P -hostfile H] args... */
  size_t wlen = strlen(plugin) + strlen(tc) + (wrapper ? strlen(wrapper) : 0) + 32;
  char *wrap = malloc(wlen);
  if (wrap == NULL)
    return fail("out of memory%s%s", "", "");
  snprintf(wrap, wlen, "env LD_PRELOAD=%s%s%s%s", plugin, tc, wrapper ? " " : "", wrapper ? wrapper : "");

  /* The spec goes to the plugin as a SimGrid flag, unless smpirun would
   * split or glob it (it word-splits --cfg values) or SimGrid would split
   * it (at ',' and blanks): then in the environment. */
  int spec_in_env = strpbrk(spec, " \t\n,*?[") != NULL;
  size_t cfg_len = strlen(spec) + sizeof "--cfg=hnm/model:";
  char *cfg_model = malloc(cfg_len);
  if (cfg_model == NULL) {
    free(wrap);
    return fail("out of memory%s%s", "", "");
  }
  snprintf(cfg_model, cfg_len, "--cfg=hnm/model:%s", spec);

  char **args = calloc((size_t)argc + 10, sizeof(char *));
  if (args == NULL) {
    free(wrap);
    return fail("out of memory%s%s", "", "");
  }
  int n = 0;
  args[n++] = "smpirun";
  args[n++] = "-wrapper";
  args[n++] = wrap;
  if (platform == NULL) {
    args[n++] = "-platform";
    args[n++] = default_platform;
  }
  if (hostfile == NULL) {
    args[n++] = "-hostfile";
    args[n++] = default_hostfile;
  }
  /* SimGrid 3.32's default lazy max-min update shares bandwidth wrongly when
   * a route holds a link that never saturates (a removed limiter, a FATPIPE):
   * use the full update unless the user chose (docs/models.md). */
  int optim_given = 0;
  for (int j = i; j < argc; j++)
    if (strncmp(argv[j], "--cfg=network/optim:", 20) == 0)
      optim_given = 1;
  if (!optim_given)
    args[n++] = "--cfg=network/optim:Full";
  if (!spec_in_env)
    args[n++] = cfg_model;
  for (int j = i; j < argc; j++) {
    if (strcmp(argv[j], "-wrapper") == 0) {
      j++; /* folded into ours */
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
    return fail("cannot set HNM_MODEL: %s%s", strerror(errno), "");
  }
  if (dry_run) {
    if (is_routed)
      printf("HNM_ROUTED_PLATFORM='%s' ", routed);
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
