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
#include "hnm_linkrole.h"
#include "hnm_model.h"
#include "hnm_model_set.h"
#include "hnm_msg.h"
#include "hnm_opt.h"
#include "hnm_out.h"
#include "hnm_routing.h"
#include "hnm_run_cfg.h"
#include "hnm_run_set.h"
#include "hnm_speed.h"
#include "hnm_version.h"
#include "hnm_proc.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define HNM_DEFAULT_MODEL "graphene"

/* hnm-run's first argument when it heads smpirun's -wrapper
 * (run__die_with_parent()); not an option of the command line. */
#define RUN__DIE_WITH_PARENT "--die-with-parent"

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
  if (*prog == '\0')
    return hnm_fail(why, len, "empty program name");
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
    return hnm_fail(why, len, "not found in $PATH nor here (give its path)");
  }
  if (stat(prog, &st) != 0)
    return hnm_fail(why, len, "%s", strerror(errno));
  if (!S_ISREG(st.st_mode))
    return hnm_fail(why, len, "not a regular file");
  if (access(prog, X_OK) != 0)
    return hnm_fail(why, len, "not executable: %s", strerror(errno));
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
          "--fast: every message goes rendez-vous (SMPI's eager and detached thresholds set to\n"
          "0), and a message the model would send eagerly or detached carries the send and\n"
          "receive overheads SMPI no longer charges as latency on the wire. A receive posted\n"
          "before the data arrives completes as in the exact run; a blocking sender is held\n"
          "until its message arrives, and a receive posted late waits for the whole transfer:\n"
          "not exact. It also uses SimGrid's network/optim:Lazy (mended, as below). (SimGrid\n"
          "3.32's list of detached transfers, which once made large runs quadratic, is kept\n"
          "short by the plugin in every mode: hnm/detached-remedy.)\n"
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
          "The plugin's SimGrid settings (hnm/model, ...): hnm-run PROGRAM --cfg-help. hnm-run checks\n"
          "every --cfg=hnm/KEY:VALUE first (a known key, one value, of its type: exit 2, one line);\n"
          "the link-load file, however named (--link-load, --cfg=hnm/link-load, $HNM_LINK_LOAD),\n"
          "may be none of the run's inputs (platform, hostfile, model, program).\n"
          "The simulator dies with hnm-run, even by SIGKILL: smpirun's -wrapper starts with\n"
          "hnm-run --die-with-parent (internal: PR_SET_PDEATHSIG, docs/reliability.md).\n"
          "Exit status: 2 on bad input (nothing simulated), else smpirun's (a model set's: see --model):\n"
          "MPI_Abort's error code when a rank calls it, a rank's exit(c) or non-zero return c, else\n"
          "1 on a deadlock or when --link-load cannot\n"
          "be written (a last line on stderr says which; docs/reliability.md); 1 when hnm-run's own\n"
          "work fails (a fork, memory, standard output).\n",
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

/* The value of ARG if it is --cfg=KEY:VALUE, else NULL. */
static const char *cfg_arg_value(const char *arg, const char *key)
{
  size_t n = strlen(key);
  return strncmp(arg, "--cfg=", 6) == 0 && strncmp(arg + 6, key, n) == 0 && arg[6 + n] == ':' ? arg + 7 + n : NULL;
}

/* Refuse a --cfg= argument hnm-run cannot pass on (-1 with the line in err:
 * bad input), else return 0:
 * - an option that hnm owns through the model: setting it too is a conflict;
 * - a setting of libhnm.so that SimGrid would end in an uncaught exception
 *   (exit status 134 from inside smpimain) or the plugin refuse: an unknown
 *   hnm/ key, no value or more than one, a value of the wrong type
 *   (hnm_run_cfg.h). */
static int refuse_cfg(const char *arg, char *err, size_t errlen)
{
  static const char *const owned[] = {"smpi/bw-factor", "smpi/lat-factor", "smpi/os", "smpi/or", "smpi/ois",
                                      "smpi/async-small-thresh", "smpi/send-is-detached-thresh", NULL};
  for (int i = 0; owned[i] != NULL; i++)
    if (cfg_arg_value(arg, owned[i]) != NULL)
      return hnm_fail(err, errlen, "'%s' conflicts with --model (hnm sets %s from the model)", arg, owned[i]);
  return run_cfg_check(arg, err, errlen);
}

/* --link-load FILE: libhnm.so writes FILE at the end of the simulation
 * ($HNM_LINK_LOAD, absolute) and reads link roles against the topology in
 * $HNM_LINK_TOPOLOGY ("TORUS 8,8,8", "hnm-dragonfly 3,4;4,3;5,1;2"), taken
 * from the routed description or from the platform's first <cluster>.
 * Returns 0, HNM_EXIT_USAGE (FILE cannot be a file) or HNM_EXIT_FAILURE
 * (the environment cannot be set), with err filled. */
static int set_link_load(const char *file, const char *routed, const char *platform, char *err, size_t errlen)
{
  char dir[PATH_MAX], abs[PATH_MAX + 256], topo[600] = "";
  const char *slash = strrchr(file, '/');
  const char *base = slash ? slash + 1 : file;
  if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--link-load: '%s' is not a file name", file);
  snprintf(abs, sizeof abs, "%.*s", slash ? (int)(slash - file) + 1 : 1, slash ? file : ".");
  if (realpath(abs, dir) == NULL)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--link-load: directory of '%s': %s", file, strerror(errno));
  snprintf(abs, sizeof abs, "%s/%s", dir, base);
  if (routed != NULL) {
    struct hnm_rnet_desc d;
    char derr[512], shape[512];
    if (hnm_rnet_desc_read(routed, &d, derr, sizeof derr) == 0 && hnm_topo_parameters(&d.topo, shape, sizeof shape) == 0)
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
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "--link-load: %s", strerror(errno));
  return 0;
}

/* --model: one model per run; a second --model is refused rather than
 * silently replacing the first. */
static int run__model(void *ctx, const char *arg, char *err, size_t errlen)
{
  const char **spec = ctx;
  if (spec[1] != NULL)
    return hnm_fail(err, errlen, "given twice ('%s', then '%s')", spec[1], arg);
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
 * the program, the platform (loaded by SimGrid), the
 * hostfile against it, -np against the hostfile. 0, or an exit status with
 * the one line in err (2: bad input; 1: the platform check could not be
 * run); *full: whether the run needs network/optim:Full; *ranks: the
 * ranks smpirun will start (-np, else the places of the hostfile or
 * platform). */
static int check_run(char **argv, int program, const char *platform, const char *hostfile,
                     const char *np_text, const hnm_model *model, const char *user_speed, run_speed *speed,
                     int *full, long *ranks, char *err, size_t errlen)
{
  char helper_path[4096], default_platform[4096], default_hostfile[4096];
  if (hnm_home_path(helper_path, sizeof helper_path, HNM_HOME_BIN "/hnm-hosts") != 0 ||
      hnm_home_path(default_platform, sizeof default_platform, HNM_HOME_PLATFORMS "/default.xml") != 0 ||
      hnm_home_path(default_hostfile, sizeof default_hostfile, HNM_HOME_PLATFORMS "/default.hosts") != 0) {
    hnm_errf(err, errlen, "%s", helper_path);
    return HNM_EXIT_USAGE;
  }
  if (program < 0) {
    hnm_errf(err, errlen, "no program to run (see hnm-run --help)");
    return HNM_EXIT_USAGE;
  }
  char pwhy[512];
  if (run__program_check(argv[program], pwhy, sizeof pwhy) != 0) {
    hnm_errf(err, errlen, "program '%s': %s", argv[program], pwhy);
    return HNM_EXIT_USAGE;
  }
  long np = 0, slots = 0;
  if (np_text != NULL && run_check_np(np_text, &np, err, errlen) != 0)
    return HNM_EXIT_USAGE;
  const char *helper = getenv("HNM_HOSTS") ? getenv("HNM_HOSTS") : helper_path;
  run_platform_info info;
  int rc = run_check_platform(helper, platform ? platform : default_platform, &info, err, errlen);
  if (rc != 0)
    return rc;
  const char *hosts_used = hostfile ? hostfile : platform ? NULL : default_hostfile;
  if (hosts_used != NULL && run_check_hostfile(hosts_used, &info, &slots, err, errlen) != 0)
    rc = HNM_EXIT_USAGE;
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
  char serr[HNM_ERRLEN];
  if (rc == 0 && run_speed_choose(&info, hosts_used, np, user_speed, speed, serr, sizeof serr) != 0) {
    hnm_errf(err, errlen, "platform file '%s': %s", platform ? platform : default_platform, serr);
    rc = HNM_EXIT_USAGE;
  }
  *full = needs_full_update(model);
  *ranks = np_text != NULL ? np : slots;
  run_platform_info_free(&info);
  return rc;
}

/* The value of the last --cfg=NAME:VALUE among ARGV[0..ARGC) (smpirun
 * takes --cfg= anywhere, even among the program's arguments), or NULL. */
static const char *cfg_value(int argc, char **argv, const char *name)
{
  const char *v = NULL;
  for (int j = 0; j < argc; j++) {
    const char *w = cfg_arg_value(argv[j], name);
    if (w != NULL)
      v = w;
  }
  return v;
}

/* --explain's second part: how computation is counted on PLATFORM (NULL:
 * the bundled one) with HOSTFILE and -np. 0, or an exit status with the
 * line in err (check_run()). */
static int explain_speed(const char *platform, const char *hostfile, const char *np_text, const char *user_speed,
                         int simulate, char *err, size_t errlen)
{
  char helper_path[4096], default_platform[4096], default_hostfile[4096];
  if (hnm_home_path(helper_path, sizeof helper_path, HNM_HOME_BIN "/hnm-hosts") != 0 ||
      hnm_home_path(default_platform, sizeof default_platform, HNM_HOME_PLATFORMS "/default.xml") != 0 ||
      hnm_home_path(default_hostfile, sizeof default_hostfile, HNM_HOME_PLATFORMS "/default.hosts") != 0) {
    hnm_errf(err, errlen, "%s", helper_path);
    return HNM_EXIT_USAGE;
  }
  const char *helper = getenv("HNM_HOSTS") ? getenv("HNM_HOSTS") : helper_path;
  const char *hosts_used = hostfile ? hostfile : platform ? NULL : default_hostfile;
  run_platform_info info;
  long np = 0, slots = 0;
  if (np_text != NULL && run_check_np(np_text, &np, err, errlen) != 0)
    return HNM_EXIT_USAGE;
  int rc = run_check_platform(helper, platform ? platform : default_platform, &info, err, errlen);
  if (rc != 0)
    return rc;
  run_speed speed;
  char serr[HNM_ERRLEN];
  if (hosts_used != NULL && run_check_hostfile(hosts_used, &info, &slots, err, errlen) != 0) {
    rc = HNM_EXIT_USAGE;
  } else if (run_speed_choose(&info, hosts_used, np, user_speed, &speed, serr, sizeof serr) != 0) {
    hnm_errf(err, errlen, "platform file '%s': %s", platform ? platform : default_platform, serr);
    rc = HNM_EXIT_USAGE;
  }
  run_platform_info_free(&info);
  if (rc == 0)
    run_speed_explain(&speed, simulate, stdout);
  return rc;
}

/* --explain's third part: which of libhnm.so's remedies of SimGrid are
 * on for this run, and why (docs/simgrid-versions.md). The plugin decides
 * at start-up, by behaviour, on the SimGrid that runs: hnm-hosts
 * --remedies loads PLATFORM with the plugin preloaded, the model in
 * $HNM_MODEL and the run's --cfg= settings, and prints the plugin's
 * lines. When that cannot be done (no plugin built, one that does not
 * load), the rest of --explain stands: one warning says why. Returns 0, or
 * an exit status with the line in err (no home: 2; out of memory: 1). */
static int explain_remedies(const char *spec, const char *platform, int argc, char **argv, char *err, size_t errlen)
{
#ifdef HNM_RUN_NO_PLUGIN
  /* A build without the plugin (the sanitizer build): no remedy to list. */
  (void)spec, (void)platform, (void)argc, (void)argv, (void)err, (void)errlen;
  return 0;
#endif
  /* Standard output already failing: the exit check reports it, alone. */
  if (hnm_msg_flush_stdout() != 0)
    return 0;
  char helper_path[4096], plugin_path[4096], default_platform[4096];
  if (hnm_home_path(helper_path, sizeof helper_path, HNM_HOME_BIN "/hnm-hosts") != 0 ||
      hnm_home_path(plugin_path, sizeof plugin_path, HNM_HOME_PLUGIN) != 0 ||
      hnm_home_path(default_platform, sizeof default_platform, HNM_HOME_PLATFORMS "/default.xml") != 0) {
    hnm_errf(err, errlen, "%s", helper_path);
    return HNM_EXIT_USAGE;
  }
  const char *helper = getenv("HNM_HOSTS") ? getenv("HNM_HOSTS") : helper_path;
  const char *plugin = getenv("HNM_PLUGIN") ? getenv("HNM_PLUGIN") : plugin_path;
  char **args = calloc((size_t)argc + 4, sizeof *args);
  if (args == NULL) {
    hnm_errf(err, errlen, "out of memory");
    return HNM_EXIT_FAILURE;
  }
  int n = 0;
  args[n++] = (char *)helper;
  args[n++] = (char *)"--remedies";
  args[n++] = (char *)(platform ? platform : default_platform);
  for (int i = 0; i < argc; i++)
    if (strncmp(argv[i], "--cfg=", 6) == 0)
      args[n++] = argv[i];
  args[n] = NULL;
  /* The plugin's own notes (a LogGPS model under Lazy, say) concern a run,
   * not this listing: its stderr is kept, and shown only if it fails. */
  FILE *errf = tmpfile();
  int out[2] = {-1, -1};
  fflush(NULL);
  pid_t parent = getpid();
  pid_t pid = errf != NULL && pipe(out) == 0 ? fork() : -1;
  if (pid < 0) {
    free(args);
    if (errf != NULL)
      fclose(errf);
    if (out[0] >= 0) {
      close(out[0]);
      close(out[1]);
    }
    hnm_msg_print(hnm_msg_prog(), HNM_MSG_WARNING, "cannot tell the remedies: %s", strerror(errno));
    return 0;
  }
  if (pid == 0) {
    hnm_proc_child_setup(parent, SIGKILL); /* the listing dies with hnm-run */
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    dup2(fileno(errf), 2);
    setenv("LD_PRELOAD", plugin, 1);
    setenv("HNM_MODEL", spec, 1);
    unsetenv("HNM_VERBOSE");
    execv(helper, args);
    _exit(127);
  }
  free(args);
  /* Its lines go out through hnm-run's own standard output, whose errors
   * hnm-run reports at exit like any other (a few hundred bytes; more is
   * read and dropped so that the helper never blocks). */
  close(out[1]);
  char text[8192];
  size_t len = 0;
  for (;;) {
    char buf[1024];
    ssize_t n = read(out[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    size_t k = (size_t)n < sizeof text - len ? (size_t)n : sizeof text - len;
    memcpy(text + len, buf, k);
    len += k;
  }
  close(out[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  char line[512] = "";
  rewind(errf);
  if (fgets(line, sizeof line, errf) != NULL)
    line[strcspn(line, "\n")] = '\0';
  fclose(errf);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    hnm_msg_print(hnm_msg_prog(), HNM_MSG_WARNING, "cannot tell the remedies: %s --remedies ended with %s %d%s%s",
                  helper, WIFEXITED(st) ? "status" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
                  *line ? ": " : "", line);
    return 0;
  }
  fwrite(text, 1, len, stdout);
  return 0;
}

/* What hnm-run knows of the run, filled step by step by main(). */
struct run__ctx {
  /* hnm-run's options */
  const char *spec;
  int explain, dry_run, tcmalloc, fast;
  const char *link_load;
  hnm_model_set *set; /* a model set (--model DIR.set), or NULL */
  /* smpirun's arguments and the program (argv[program]) */
  int argc;
  char **argv;
  const char *platform, *hostfile, *wrapper, *np_text;
  int program;
  /* a routed platform: its description, and the library SimGrid loads */
  int is_routed;
  char platform_lib[4096], routed[PATH_MAX];
  /* what the checks chose */
  int full;
  long ranks;
  run_speed speed;
};

/* Step 1: hnm-run's own options, split from smpirun's; a model set opened
 * whole. Returns -1 to go on, else the exit status (err filled unless 0). */
static int run__options(struct run__ctx *r, int argc, char **argv, char *err, size_t errlen)
{
  int no_tcmalloc = 0;
  const struct hnm_opt opts[] = {
    {.name = "model", .kind = HNM_OPT_CALL, .arg = "SPEC", .help = "network model: a bundled name or a file, with overrides (see below)", .fn = run__model},
    {.name = "explain", .kind = HNM_OPT_FLAG, .help = "print the effective model parameters, how computation is counted and which remedies of SimGrid are on, and exit", .value = &r->explain},
    {.name = "dry-run", .kind = HNM_OPT_FLAG, .help = "validate everything and print the smpirun command, run nothing", .value = &r->dry_run},
    {.name = "tcmalloc", .kind = HNM_OPT_FLAG, .help = "preload tcmalloc into the simulator (off by default: see below)", .value = &r->tcmalloc},
    {.name = "fast", .kind = HNM_OPT_FLAG, .help = "fast mode for the largest runs: every message rendez-vous, overheads on the wire (not exact: docs/scale.md)", .value = &r->fast},
    {.name = "no-tcmalloc", .kind = HNM_OPT_FLAG, .help = "do not preload tcmalloc (the default)", .value = &no_tcmalloc},
    {.name = "link-load", .kind = HNM_OPT_STRING, .arg = "FILE", .help = "write per-link load (CSV) to FILE at the end (docs/experiments.md)", .value = &r->link_load},
    {.name = NULL}};
  const char *given[2] = {r->spec, NULL}; /* the spec, the --model given (run__model()) */
  const struct hnm_opt_cmd cmd = {"hnm-run", "[OPTIONS] [SMPIRUN-OPTIONS] PROGRAM [ARGS...]",
                                  "Run an MPI program under SimGrid's smpirun with an hnm network model "
                                  "(default model: " HNM_DEFAULT_MODEL ", or $HNM_DEFAULT_MODEL).",
                                  NULL, run__notes, 0, given};
  /* Static: they live until exec or exit, whatever the path. */
  static char **own, **rest;
  own = calloc((size_t)argc + 1, sizeof *own);
  rest = calloc((size_t)argc + 1, sizeof *rest);
  int nown, nrest;
  if (own == NULL || rest == NULL) {
    hnm_errf(err, errlen, "out of memory");
    return HNM_EXIT_FAILURE;
  }
  run__split(argc, argv, opts, own, &nown, rest, &nrest);
  /* smpirun takes --cfg and --log only with their '=': the space form
   * would reach the program as its arguments (after it) or be refused as
   * an unknown option of hnm-run's (before it). */
  for (int j = 1; j < argc; j++)
    for (int o = 1; o < nown; o++)
      if (own[o] == argv[j] && (strcmp(argv[j], "--cfg") == 0 || strcmp(argv[j], "--log") == 0))
        return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                               "%s: the setting goes after '=', as smpirun takes it (%s=%s)", argv[j], argv[j],
                               j + 1 < argc ? argv[j + 1] : "KEY:VALUE");
  int first = hnm_opt_parse(&cmd, opts, nown, own, err, errlen);
  if (first < 0)
    return first == HNM_OPT_DONE ? HNM_EXIT_OK : HNM_EXIT_USAGE;
  r->spec = given[0];
  /* A model set: checked whole now, the central model stands for the set
   * in every check below, and each model runs in turn at the end. */
  if (hnm_model_set_is(r->spec)) {
    r->set = hnm_model_set_open(r->spec, err, errlen);
    if (r->set == NULL)
      return HNM_EXIT_USAGE;
    r->spec = r->set->specs[0];
  }
  r->tcmalloc = r->tcmalloc && !no_tcmalloc;
  r->argc = nrest; /* from here on, argv holds smpirun's arguments and the program */
  r->argv = rest;
  return -1;
}

/* Step 2: the model, what --fast cannot take, and --explain's model part.
 * Returns the model, or NULL with the line in err (bad input). */
static hnm_model *run__model_load(const struct run__ctx *r, char *err, size_t errlen)
{
  hnm_model *model = hnm_model_parse_spec(r->spec, err, errlen);
  if (model == NULL)
    return NULL;
  struct hnm_loggps fast_loggps;
  struct hnm_rma fast_rma;
  if (r->fast && hnm_model_loggps(model, &fast_loggps)) {
    hnm_errf(err, errlen,
             "--fast: model '%s' is LogGPS, whose messages cost O(1) each already; fast mode applies to "
             "max-min models (hybrid, fluid)",
             r->spec);
  } else if (r->fast && hnm_model_rma(model, &fast_rma)) {
    hnm_errf(err, errlen,
             "--fast: model '%s' has one-sided costs (<rma>), which fast mode would put on the wire as "
             "point-to-point overheads; drop --fast or the model's <rma>",
             r->spec);
  } else {
    if (r->explain) {
      hnm_model_explain(model, stdout);
      if (r->set != NULL)
        printf("model set %s: the central model above and %zu members (member-001.xml ...)\n", r->set->dir,
               r->set->nmembers);
      if (r->fast)
        printf("fast mode (--fast): every message rendez-vous; messages the model sends eagerly or detached carry\n"
               "  their send and receive overheads as latency (docs/scale.md)\n");
      fflush(stdout);
    }
    return model;
  }
  hnm_model_free(model);
  return NULL;
}

/* Step 3: smpirun's arguments: platform, hostfile, -np, wrapper, program.
 * Returns 0, or -1 with the refusal in err (bad input). */
static int run__scan(struct run__ctx *r, char *err, size_t errlen)
{
  for (int j = 0; j < r->argc; j++) {
    const char *a = r->argv[j];
    if (refuse_cfg(a, err, errlen) != 0)
      return -1;
    if (a[0] != '-') {
      r->program = j;
      break;
    }
    if (smpirun_takes_value(a)) {
      if (j + 1 >= r->argc)
        return hnm_fail(err, errlen, "smpirun option %s needs a value", a);
      const char **slot = NULL;
      if (strcmp(a, "-platform") == 0)
        slot = &r->platform;
      else if (strcmp(a, "-hostfile") == 0 || strcmp(a, "-machinefile") == 0)
        slot = &r->hostfile;
      else if (strcmp(a, "-np") == 0 || strcmp(a, "-n") == 0)
        slot = &r->np_text;
      else if (strcmp(a, "-wrapper") == 0)
        slot = &r->wrapper;
      if (slot != NULL && *slot != NULL)
        return hnm_fail(err, errlen, "%s given twice: give it once", a);
      if (slot != NULL)
        *slot = r->argv[j + 1];
      j++;
    }
  }
  /* Arguments after the program belong to the program, but smpirun steals
   * --cfg= wherever it finds it: checked all the same. */
  for (int j = r->program + 1; r->program >= 0 && j < r->argc; j++)
    if (refuse_cfg(r->argv[j], err, errlen) != 0)
      return -1;
  return 0;
}

/* Step 4: a routed platform (hnm-platform --routing) is a description that
 * hnm's platform library builds: SimGrid gets the library as -platform and
 * the description in $HNM_ROUTED_PLATFORM (docs/platforms.md, "Routing");
 * the checks load it the same way. Returns 0, or an exit status with the
 * line in err. */
static int run__routed(struct run__ctx *r, char *err, size_t errlen)
{
  char why[512];
  if (r->platform == NULL)
    return 0;
  if (hnm_input_check(r->platform, why, sizeof why) != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "platform file '%s': %s", r->platform, why);
  r->is_routed = hnm_rnet_is_description(r->platform);
  if (!r->is_routed)
    return 0;
  struct hnm_rnet_desc desc;
  if (hnm_rnet_desc_read(r->platform, &desc, err, errlen) != 0)
    return HNM_EXIT_USAGE;
  if (hnm_topo_hosts(&desc.topo) > HNM_RUN_MAX_ROUTED_HOSTS) {
    hnm_errf(err, errlen, "platform file '%s': shape: %lu hosts, more than the %lu hnm-run loads (about 5.6 KB of "
             "memory per host)", r->platform, hnm_topo_hosts(&desc.topo), HNM_RUN_MAX_ROUTED_HOSTS);
    return HNM_EXIT_USAGE;
  }
  if (realpath(r->platform, r->routed) == NULL)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "cannot resolve platform file '%s': %s", r->platform,
                           strerror(errno));
  if (getenv("HNM_PLATFORM_LIB") != NULL)
    snprintf(r->platform_lib, sizeof r->platform_lib, "%s", getenv("HNM_PLATFORM_LIB"));
  else if (hnm_home_path(r->platform_lib, sizeof r->platform_lib, "lib/libhnmplatform.so") != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s", r->platform_lib);
  if (hnm_input_check(r->platform_lib, why, sizeof why) != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "hnm's platform library '%s': %s (build it, or set HNM_PLATFORM_LIB)", r->platform_lib, why);
  if (setenv("HNM_ROUTED_PLATFORM", r->routed, 1) != 0)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "cannot set HNM_ROUTED_PLATFORM: %s", strerror(errno));
  return 0;
}

/* Step 5a: the run's inputs (core/hnm_out.h), which no output of the run
 * may be: the platform and hostfile that smpirun reads (the bundled ones
 * by default), the model file (a spec's part before its overrides; a model
 * set's files) and the program. 0, or -1 with the line in err (memory). */
static int run__inputs(const struct run__ctx *r, char *err, size_t errlen)
{
  char plat[4096], hosts[4096], model[4096];
  if (hnm_home_path(plat, sizeof plat, HNM_HOME_PLATFORMS "/default.xml") != 0)
    plat[0] = '\0';
  if (hnm_home_path(hosts, sizeof hosts, HNM_HOME_PLATFORMS "/default.hosts") != 0)
    hosts[0] = '\0';
  snprintf(model, sizeof model, "%s", r->spec);
  char *slash = strrchr(model, '/'), *colon = strchr(slash != NULL ? slash : model, ':');
  if (colon != NULL)
    *colon = '\0';
  const char *prog = r->program >= 0 && strchr(r->argv[r->program], '/') != NULL ? r->argv[r->program] : NULL;
  if (hnm_out_input(r->platform != NULL ? r->platform : plat, "the platform", err, errlen) != 0 ||
      hnm_out_input(r->hostfile != NULL ? r->hostfile : r->platform == NULL ? hosts : NULL, "the hostfile", err,
                    errlen) != 0 ||
      hnm_out_input(model, "the model", err, errlen) != 0 || hnm_out_input(prog, "the program", err, errlen) != 0)
    return -1;
  for (size_t k = 0; r->set != NULL && k < r->set->nmembers + 1; k++) {
    snprintf(model, sizeof model, "%s/%s", r->set->dir, r->set->files[k]);
    if (hnm_out_input(model, "a model of the set", err, errlen) != 0)
      return -1;
  }
  return 0;
}

/* Step 5: the per-link load, written at the end of the simulation, to the
 * file of --link-load, else of --cfg=hnm/link-load (before or after the
 * program: smpirun takes it anywhere), else of $HNM_LINK_LOAD (what the
 * plugin reads): a place it cannot be written to, or one of the inputs
 * (step 5a), is refused now (-1 with the line in err: bad input). */
static int run__link_load_check(const struct run__ctx *r, char *err, size_t errlen)
{
  char file[4096];
  int by_cfg = 0;
  if (r->link_load != NULL && hnm_out_check(r->link_load, "--link-load", err, errlen) != 0)
    return -1;
  for (int j = 0; j < r->argc; j++) {
    if (!run_cfg_link_load(r->argv[j], file, sizeof file))
      continue;
    if (r->link_load != NULL)
      return hnm_fail(err, errlen, "'%s' conflicts with --link-load '%s': give one", r->argv[j], r->link_load);
    if (hnm_out_check(file, "--cfg=hnm/link-load", err, errlen) != 0)
      return -1;
    by_cfg = 1;
  }
  const char *env = getenv("HNM_LINK_LOAD");
  if (r->link_load == NULL && !by_cfg && env != NULL && *env != '\0' &&
      hnm_out_check(env, "$HNM_LINK_LOAD", err, errlen) != 0)
    return -1;
  /* $HNM_LINK_TOPOLOGY, the plugin's fallback of --cfg=hnm/link-topology
   * for the link-load file: a value it cannot parse would be ignored in
   * silence (roles from the link names only). */
  const char *topo = getenv("HNM_LINK_TOPOLOGY");
  int by_cfg_topo = 0;
  for (int j = 0; j < r->argc; j++)
    by_cfg_topo |= strncmp(r->argv[j], "--cfg=hnm/link-topology:", 24) == 0;
  if ((r->link_load != NULL || by_cfg || (env != NULL && *env != '\0')) && !by_cfg_topo && topo != NULL && *topo) {
    const char *sp = strchr(topo, ' ');
    char kind[64];
    struct hnm_linkrole_topo t;
    if (sp == NULL || sp - topo >= (ptrdiff_t)sizeof kind ||
        (snprintf(kind, sizeof kind, "%.*s", (int)(sp - topo), topo) < 0 || hnm_linkrole_topo_parse(kind, sp + 1, &t) != 0))
      return hnm_fail(err, errlen,
                      "$HNM_LINK_TOPOLOGY: '%s' is not TOPOLOGY PARAMETERS ('TORUS 8,8,8', 'DRAGONFLY 3,4;4,3;5,1;2')",
                      topo);
  }
  return 0;
}

/* Step 6: the whole run checked (hnm_check.h) with the model, the host
 * speed chosen; or --explain's computation part. Frees the model. Returns
 * -1 to go on, else the exit status (rc: a refusal of an earlier step,
 * which --explain still reports after the model, its line in err). */
static int run__check(struct run__ctx *r, hnm_model *model, int rc, char *err, size_t errlen)
{
  /* smpi/host-speed: the user's, else chosen from the platform
   * (hnm_speed.h); smpi/simulate-computation only for --explain's text. */
  const char *user_speed = cfg_value(r->argc, r->argv, "smpi/host-speed");
  const char *simcomp = cfg_value(r->argc, r->argv, "smpi/simulate-computation");
  int simulate = simcomp == NULL || !(strcmp(simcomp, "no") == 0 || strcmp(simcomp, "0") == 0 ||
                                      strcmp(simcomp, "false") == 0 || strcmp(simcomp, "off") == 0);
  const char *platform = r->is_routed ? r->platform_lib : r->platform;
  if (r->explain) {
    hnm_model_free(model);
    if (rc == 0)
      rc = explain_speed(platform, r->hostfile, r->np_text, user_speed, simulate, err, errlen);
    return rc != 0 ? rc : explain_remedies(r->spec, platform, r->argc, r->argv, err, errlen);
  }
  memset(&r->speed, 0, sizeof r->speed);
  if (rc == 0)
    rc = check_run(r->argv, r->program, platform, r->hostfile, r->np_text, model, user_speed, &r->speed,
                   &r->full, &r->ranks, err, errlen);
  hnm_model_free(model);
  return rc != 0 ? rc : -1;
}

/* The strings smpirun's command line points to, owned by main(). */
struct run__cmdline {
  char **args;
  int n;
  char *wrap, *cfg_model;
  int spec_in_env;
  char cfg_speed[96];
  char plugin_path[4096], default_platform[4096], default_hostfile[4096];
  char self[4096]; /* hnm-run's own executable, the head of the wrapper */
};

static void run__cmdline_free(struct run__cmdline *c)
{
  free(c->args);
  free(c->wrap);
  free(c->cfg_model);
}

/* Step 7a: the paths of hnm's home, --link-load's environment, and
 * smpirun's -wrapper "env LD_PRELOAD=plugin[:tcmalloc] [user wrapper]".
 * Returns 0 or an exit status with the line in err. */
static int run__cmdline_wrapper(const struct run__ctx *r, struct run__cmdline *c, char *err, size_t errlen)
{
  if (hnm_home_path(c->plugin_path, sizeof c->plugin_path, HNM_HOME_PLUGIN) != 0 ||
      hnm_home_path(c->default_platform, sizeof c->default_platform, HNM_HOME_PLATFORMS "/default.xml") != 0 ||
      hnm_home_path(c->default_hostfile, sizeof c->default_hostfile, HNM_HOME_PLATFORMS "/default.hosts") != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s", c->plugin_path);
  int rc = r->link_load == NULL ? 0
                                : set_link_load(r->link_load, r->is_routed ? r->platform : NULL,
                                                r->platform != NULL ? r->platform : c->default_platform, err, errlen);
  if (rc != 0)
    return rc;
  const char *plugin = getenv("HNM_PLUGIN") ? getenv("HNM_PLUGIN") : c->plugin_path;
  char why[512];
  if (hnm_input_check(plugin, why, sizeof why) != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "the hnm plugin '%s': %s (build it, or set HNM_PLUGIN)", plugin,
                           why);
  if (strchr(plugin, ' ') != NULL)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "the plugin path '%s' contains a space, which smpirun's -wrapper cannot carry", plugin);

  /* tcmalloc speeds up SMPI's many small allocations (bench: 1.36x on a
   * 1024-rank gcr) without changing simulated results, but with SMPI's
   * privatization (smpirun's default) an unmodified program can free a
   * pointer tcmalloc did not allocate and abort: opt-in only. */
  const char *tc = "";
#ifdef HNM_TCMALLOC_PATH
  if (r->tcmalloc) {
    if (hnm_input_check(HNM_TCMALLOC_PATH, why, sizeof why) != 0 || strchr(HNM_TCMALLOC_PATH, ' ') != NULL)
      return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--tcmalloc: cannot preload '%s': %s", HNM_TCMALLOC_PATH,
                             why);
    tc = ":" HNM_TCMALLOC_PATH;
  }
#else
  if (r->tcmalloc)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "--tcmalloc: tcmalloc was not found when hnm was built (install libgoogle-perftools4)");
#endif

  ssize_t sn = readlink("/proc/self/exe", c->self, sizeof c->self - 1);
  if (sn <= 0 || (size_t)sn >= sizeof c->self - 1)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "cannot find hnm-run's own executable: %s",
                           sn < 0 ? strerror(errno) : "path too long");
  c->self[sn] = '\0';
  if (strchr(c->self, ' ') != NULL)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "hnm-run's path '%s' contains a space, which smpirun's -wrapper cannot carry", c->self);
  size_t wlen = strlen(c->self) + strlen(plugin) + strlen(tc) + (r->wrapper ? strlen(r->wrapper) : 0) + 64;
  c->wrap = malloc(wlen);
  if (c->wrap == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  snprintf(c->wrap, wlen, "%s " RUN__DIE_WITH_PARENT " env LD_PRELOAD=%s%s%s%s", c->self, plugin, tc,
           r->wrapper ? " " : "", r->wrapper ? r->wrapper : "");
  return 0;
}

/* Step 7: smpirun's command line: smpirun -wrapper (step 7a) [-platform P
 * -hostfile H] hnm's settings, then smpirun's arguments and the program.
 * Returns 0 or an exit status with the line in err. */
static int run__cmdline_build(const struct run__ctx *r, struct run__cmdline *c, char *err, size_t errlen)
{
  if (r->speed.text[0] != '\0')
    snprintf(c->cfg_speed, sizeof c->cfg_speed, "--cfg=smpi/host-speed:%s", r->speed.text);
  int rc = run__cmdline_wrapper(r, c, err, errlen);
  if (rc != 0)
    return rc;

  /* The spec goes to the plugin as a SimGrid flag, unless smpirun would
   * split or glob it (it word-splits --cfg values) or SimGrid would split
   * it (at ',' and blanks): then in the environment. */
  c->spec_in_env = r->set != NULL || strpbrk(r->spec, " \t\n,*?[") != NULL;
  size_t cfg_len = strlen(r->spec) + sizeof "--cfg=hnm/model:";
  c->cfg_model = malloc(cfg_len);
  c->args = calloc((size_t)r->argc + 18, sizeof(char *));
  if (c->cfg_model == NULL || c->args == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  snprintf(c->cfg_model, cfg_len, "--cfg=hnm/model:%s", r->spec);

  char **args = c->args;
  int n = 0;
  args[n++] = "smpirun";
  args[n++] = "-wrapper";
  args[n++] = c->wrap;
  if (r->platform == NULL) {
    args[n++] = "-platform";
    args[n++] = c->default_platform;
  }
  if (r->hostfile == NULL && r->platform == NULL) {
    args[n++] = "-hostfile";
    args[n++] = c->default_hostfile;
  }
  if (c->cfg_speed[0] != '\0')
    args[n++] = c->cfg_speed;
  /* Full where Lazy's order matters (needs_full_update()), unless the
   * command line chose. */
  int optim_given = 0;
  for (int j = 0; j < r->argc; j++)
    if (strncmp(r->argv[j], "--cfg=network/optim:", 20) == 0)
      optim_given = 1;
  /* --fast uses SimGrid's Lazy update (mended by the plugin). */
  if (r->fast && !optim_given)
    args[n++] = "--cfg=network/optim:Lazy";
  else if (r->full && !optim_given)
    args[n++] = "--cfg=network/optim:Full";
  /* Stack guard pages off where the ranks' stacks would exceed the
   * process's memory mappings (needs_no_guard()), unless the command line
   * chose. */
  int guard_given = 0;
  for (int j = 0; j < r->argc; j++)
    if (strncmp(r->argv[j], "--cfg=contexts/guard-size:", 26) == 0)
      guard_given = 1;
  long limit = max_map_count();
  if (!guard_given && needs_no_guard(r->ranks, limit)) {
    args[n++] = "--cfg=contexts/guard-size:0";
    hnm_msg_note("%ld ranks need about %ld memory mappings with stack guard pages, more than "
            "vm.max_map_count (%ld): adding --cfg=contexts/guard-size:0 (no stack guard pages; to keep them, "
            "raise the limit as root: sysctl -w vm.max_map_count=%ld)",
            r->ranks, r->ranks * RUN__MAPPINGS_PER_RANK_X10 / 10, limit, r->ranks * 4);
  }
  if (!c->spec_in_env)
    args[n++] = c->cfg_model;
  if (r->fast)
    args[n++] = "--cfg=hnm/fast:yes";
  if (r->set != NULL) {
    /* SimGrid's final "Simulated time: X seconds." line (smpi_utils.cpp). */
    args[n++] = "--cfg=smpi/display-timing:yes";
    args[n++] = "--log=smpi_utils.thres:info";
  }
  for (int j = 0; j < r->argc; j++) {
    /* smpirun's -wrapper is folded into ours; from the program on,
     * everything is the program's, spelled like an option or not. */
    if (j < r->program && strcmp(r->argv[j], "-wrapper") == 0) {
      j++;
      continue;
    }
    if (r->is_routed && strcmp(r->argv[j], "-platform") == 0 && j + 1 < r->argc && j < r->program) {
      args[n++] = r->argv[j++];
      args[n++] = (char *)r->platform_lib;
      continue;
    }
    args[n++] = r->argv[j];
  }
  args[n] = NULL;
  c->n = n;
  if (c->spec_in_env && setenv("HNM_MODEL", r->spec, 1) != 0)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "cannot set HNM_MODEL: %s", strerror(errno));
  return 0;
}

/* Step 8: print the command line (--dry-run), run a model set's models in
 * turn, or become smpirun. Returns the exit status, with a line in err when
 * hnm-run has one to say (smpirun could not be started: 127). */
static int run__launch(const struct run__ctx *r, const struct run__cmdline *c, char *err, size_t errlen)
{
  if (r->dry_run) {
    /* One line per run: a model set's models in the order they run. */
    for (size_t k = 0; k < (r->set != NULL ? r->set->nmembers + 1 : 1); k++) {
      if (r->is_routed)
        printf("HNM_ROUTED_PLATFORM='%s' ", r->routed);
      if (c->spec_in_env)
        printf("HNM_MODEL='%s' ", r->set != NULL ? r->set->specs[k] : r->spec);
      for (int j = 0; j < c->n; j++)
        printf(strchr(c->args[j], ' ') ? "%s'%s'" : "%s%s", j > 0 ? " " : "", c->args[j]);
      printf("\n");
    }
    return 0;
  }
  fflush(stdout);
  if (r->set != NULL)
    return run_set(r->set, c->args, err, errlen);
  /* smpirun is this process from now on (run__die_with_parent()). */
  char pid[32];
  snprintf(pid, sizeof pid, "%ld", (long)getpid());
  if (setenv("HNM_RUN_SMPIRUN", pid, 1) != 0)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "cannot set HNM_RUN_SMPIRUN: %s", strerror(errno));
  execvp("smpirun", c->args);
  return hnm_fail_status(127, err, errlen, "cannot run smpirun: %s (install simgrid)", strerror(errno));
}

/* The head of smpirun's -wrapper: "hnm-run --die-with-parent env
 * LD_PRELOAD=... smpimain ...". smpirun (a shell script: hnm-run itself
 * after execvp, or a model set's child) starts the simulator as its own
 * child; a SIGKILL to hnm-run ends the script but not its child, which
 * would spin on. Here, in that child, before it becomes the simulator:
 * PR_SET_PDEATHSIG, which exec keeps, makes the kernel SIGKILL the
 * simulator when smpirun dies, however it dies. $HNM_RUN_SMPIRUN (the pid
 * of smpirun, set by hnm-run) tells whether smpirun died before the
 * request. Returns only on failure (127, with the line in err). */
static int run__die_with_parent(char **cmd, char *err, size_t errlen)
{
  const char *want = getenv("HNM_RUN_SMPIRUN");
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "--die-with-parent: %s", strerror(errno));
  /* smpirun gone already: the guard was reparented, and smpirun is no
   * more (a shell that starts its job through a subshell of its own keeps
   * smpirun alive: that run goes on). */
  long sp = want != NULL ? strtol(want, NULL, 10) : 0;
  if (sp > 0 && sp != (long)getppid() && kill((pid_t)sp, 0) != 0)
    raise(SIGKILL);
  unsetenv("HNM_RUN_SMPIRUN");
  execvp(cmd[0], cmd);
  return hnm_fail_status(127, err, errlen, "--die-with-parent: cannot run %s: %s", cmd[0], strerror(errno));
}

int main(int argc, char **argv)
{
  /* Static: a model set's specs and the command line outlive every step. */
  static struct run__ctx r;
  static struct run__cmdline c;
  r.spec = getenv("HNM_DEFAULT_MODEL") ? getenv("HNM_DEFAULT_MODEL") : HNM_DEFAULT_MODEL;
  r.program = -1;
  hnm_msg_init("hnm-run");
  char err[HNM_ERRLEN] = "";
  int rc = -1;
  if (argc > 2 && strcmp(argv[1], RUN__DIE_WITH_PARENT) == 0) {
    rc = run__die_with_parent(argv + 2, err, sizeof err);
    goto report;
  }
  rc = run__options(&r, argc, argv, err, sizeof err);
  if (rc >= 0)
    goto report;
  hnm_model *model = run__model_load(&r, err, sizeof err);
  if (model == NULL) {
    rc = HNM_EXIT_USAGE;
    goto report;
  }
  rc = run__scan(&r, err, sizeof err) != 0 ? HNM_EXIT_USAGE : 0;
  if (rc == 0)
    rc = run__routed(&r, err, sizeof err);
  if (rc == 0 && run__inputs(&r, err, sizeof err) != 0)
    rc = HNM_EXIT_FAILURE;
  if (rc == 0 && run__link_load_check(&r, err, sizeof err) != 0)
    rc = HNM_EXIT_USAGE;
  rc = run__check(&r, model, rc, err, sizeof err);
  if (rc >= 0)
    goto report;
  rc = run__cmdline_build(&r, &c, err, sizeof err);
  if (rc == 0)
    rc = run__launch(&r, &c, err, sizeof err);
  run__cmdline_free(&c);
  if (r.set != NULL)
    hnm_model_set_free(r.set);
report:
  /* The one line of a failure: bad input (2), failed work (1), or the
   * status of a run that hnm-run passes on with its reason. */
  if (rc == 0 || err[0] == '\0')
    return rc;
  if (rc == HNM_EXIT_FAILURE)
    return hnm_msg_failure("%s", err);
  hnm_msg_error("%s", err);
  return rc;
}
