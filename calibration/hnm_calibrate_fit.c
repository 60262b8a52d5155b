/* hnm-calibrate fit: the fit command. It reads the CSVs, fits them with
 * libhnmfit's procedure (hnm_fit_model.h), as often as the held-out
 * errors, the candidate breakpoint sets and the bootstrap ask, and writes
 * the model, the report and the model set.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "hnm_fit.h"
#include "hnm_model.h"
#include "hnm_units.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hnm_calibrate_fit.h"
#include "hnm_calibrate_pcal.h"
#include "hnm_calibrate_refine.h"
#include "hnm_msg.h"
#include "hnm_out.h"
#include "hnm_opt.h"
#include "hnm_calibrate_util.h"
#include "hnm_xml_writer.h"
#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_fitted.h"
#include "hnm_calibrate_rma.h"
#include "hnm_calibrate_report.h"
#include "hnm_calibrate_noise.h"
#include "hnm_calibrate_pack.h"
#include "hnm_calibrate_set.h"

/* Each line of TEXT (whole lines; a last one may be cut by its buffer's
 * end) as one message. */
static void cal_fit__print_lines(const char *text)
{
  for (const char *w = text, *e; *w; w = e + 1) {
    e = strchr(w, '\n');
    if (e == NULL) {
      hnm_msg_info("%s", w);
      break;
    }
    hnm_msg_info("%.*s", (int)(e - w), w);
  }
}

/* The status of a refusal whose line is ERR: memory is failed work (1),
 * anything else the data's fault (2). */
static int cal_fit__status(const char *err)
{
  return strstr(err, "out of memory") != NULL ? HNM_EXIT_FAILURE : HNM_EXIT_USAGE;
}

/* One fit of IN with A's options into M (hnm_fit_model.h), as every fit
 * of the command makes it (the central one, held-out folds, candidates,
 * bootstrap members): the probe's notes shown as the fit reads them. 0,
 * or the status to return with the refusal in err. */
static int cal_fit__model(struct cal_inputs *in, const struct cal_fit_args *a, struct cal_fitted *m, char *err,
                          size_t errlen)
{
  hnm_fit_data d;
  cal_inputs_data(in, &d);
  hnm_fit_model_options o = {.penalty = a->penalty, .noise_floor = a->noise_floor, .max_segments = a->max_segments,
                             .min_sizes = a->min_sizes, .forced = a->forced, .nforced = a->nforced,
                             .forced_only = a->forced_only, .loss = a->loss, .raw = a->raw, .smooth = a->smooth,
                             .have_protocol = a->force_detached > -2, .async = a->force_async,
                             .detached = a->force_detached};
  memset(m, 0, sizeof *m);
  if (hnm_fit_model(&d, &o, &m->f, err, errlen) != 0)
    return cal_fit__status(err);
  cal_fit__print_lines(m->f.protocol_notes);
  return 0;
}

#define CAL_FIT_MAX_SIZE 9007199254740992.0 /* 2^53 bytes: docs/model-format.md's largest size */

/* Whether V, written as a plain number (optionally ending in "B"), is
 * exactly the double B: 9007199254740993 reads as 2^53, silently rounded.
 * strtold's wider mantissa sees the difference (a size with a unit
 * prefix is a plain number times a power of 2 or 10: not checked). */
static int cal_fit__exact(const char *v, double b)
{
  char *end;
  errno = 0;
  long double x = strtold(v, &end);
  if (end == v || (*end != '\0' && strcmp(end, "B") != 0))
    return 1;
  return x == (long double)b;
}

/* A size option's value: whole bytes from 0 to 2^53 (units allowed), or
 * "none" (-1). */
static int cal_fit__size_value(const char *v, double *out, char *err, size_t errlen)
{
  char why[256];
  double b;
  if (strcmp(v, "none") == 0) {
    *out = -1;
    return 0;
  }
  if (hnm_parse_size(v, &b, why, sizeof why) != 0 && !(cal_parse_field(v, &b)))
    return hnm_fail(err, errlen, "'%s': not a size (%s)", v, why);
  if (b != floor(b) || b < 0)
    return hnm_fail(err, errlen, "'%s': not a whole number of bytes", v);
  if (b > CAL_FIT_MAX_SIZE || !cal_fit__exact(v, b))
    return hnm_fail(err, errlen, "'%s': not a whole number of bytes from 0 to 2^53 (a double would round it)", v);
  *out = b;
  return 0;
}

struct cal_fit__ctx {
  struct cal_fit_args *a;
  double *forced; /* [40] */
};

/* --breakpoints LIST: sizes separated by single commas, increasing. */
static int cal_fit__breakpoints(void *ctx, const char *v, char *err, size_t errlen)
{
  struct cal_fit__ctx *fc = ctx;
  fc->a->nforced = 0;
  for (const char *p = v;; p++) {
    char t[256];
    size_t l = strcspn(p, ",");
    if (l == 0)
      return hnm_fail(err, errlen, "'%s': an empty size (give sizes separated by single commas)", v);
    if (l >= sizeof t)
      return hnm_fail(err, errlen, "'%.40s...': not a size (too long)", p);
    memcpy(t, p, l);
    t[l] = '\0';
    double b;
    if (fc->a->nforced == 40)
      return hnm_fail(err, errlen, "at most 40");
    if (cal_fit__size_value(t, &b, err, errlen) != 0)
      return -1;
    if (b < 0)
      return hnm_fail(err, errlen, "'none' is not a breakpoint");
    if (fc->a->nforced > 0 && !(b > fc->forced[fc->a->nforced - 1]))
      return hnm_fail(err, errlen, "'%s': the sizes must increase ('%s' after %.0f)", v, t,
                      fc->forced[fc->a->nforced - 1]);
    fc->forced[fc->a->nforced++] = b;
    p += l;
    if (*p == '\0')
      break;
  }
  fc->a->forced = fc->forced;
  return 0;
}

static int cal_fit__loss(void *ctx, const char *v, char *err, size_t errlen)
{
  struct cal_fit_args *a = ((struct cal_fit__ctx *)ctx)->a;
  if (strcmp(v, "abs") != 0 && strcmp(v, "huber") != 0)
    return hnm_fail(err, errlen, "'%s': expected abs or huber", v);
  a->loss = v[0] == 'a' ? HNM_FIT_LOSS_ABS : HNM_FIT_LOSS_HUBER;
  return 0;
}

static int cal_fit__protocol(void *ctx, const char *v, char *err, size_t errlen)
{
  struct cal_fit_args *a = ((struct cal_fit__ctx *)ctx)->a;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", v);
  char *c = strchr(buf, ',');
  if (c == NULL)
    return hnm_fail(err, errlen, "'%s': expected ASYNC,DETACHED", v);
  *c = '\0';
  if (cal_fit__size_value(buf, &a->force_async, err, errlen) != 0 ||
      cal_fit__size_value(c + 1, &a->force_detached, err, errlen) != 0)
    return -1;
  if (a->force_async >= 0 && (a->force_detached < 0 || a->force_async > a->force_detached))
    return hnm_fail(err, errlen, "'%s': async > detached", v);
  return 0;
}

/* The fitted values within the ranges a model file accepts: 0, or
 * HNM_EXIT_USAGE with err (nothing written). */
static int cal_fit__check(const struct cal_fitted *m, char *err, size_t errlen)
{
  return hnm_fit_check(&m->f, err, errlen) != 0 ? HNM_EXIT_USAGE : 0;
}

/* DIR/pack.txt: the pack fit per pattern (hnm_calibrate_pack.h); the worst
 * held-out error into *worst. 0, or -1 with err (a failed write). */
static int cal_fit__write_pack_report(const char *dir, const struct cal_pack_data *d, const struct hnm_pack_model *p,
                                      double *worst, char *err, size_t errlen)
{
  char path[4300];
  snprintf(path, sizeof path, "%s/pack.txt", dir);
  hnm_out *o = hnm_out_open(path, "--report", err, errlen);
  if (o == NULL)
    return -1;
  *worst = cal_pack_report(hnm_out_file(o), d, p);
  return hnm_out_commit(o, err, errlen);
}

/* What the model has beyond its segments: the RMA fit and, for the
 * stochastic mode, each segment's residuals. 0, or a status with err. */
static int cal_fit__complete(const struct cal_inputs *in, const struct cal_fit_args *a, struct cal_fitted *m, char *err,
                             size_t errlen)
{
  hnm_fit_data d;
  if (cal_fit_rma(in, m, err, errlen) != 0)
    return HNM_EXIT_FAILURE;
  cal_inputs_data(in, &d);
  if (hnm_fit_residuals_window(&d, &m->f, (size_t)a->residual_sizes, err, errlen) != 0)
    return cal_fit__status(err);
  return 0;
}

/* One run of the command, from its options to what it wrote. */
struct cal_fit__run {
  struct cal_fit_args a;
  double forced[40];
  struct cal_fit__ctx fc;
  long max_segments, min_sizes;
  int no_plots, raw, medians;
  const char **files;
  int nfiles;
  char setdir[4200];         /* --bootstrap: the model set's directory */
  char report[4200];         /* the report directory's name when not given */
  hnm_out *out;              /* -o, until committed or aborted */
  hnm_out_dir *rdir;         /* the report directory, until committed or aborted */
  struct cal_inputs in;
  double located[64];        /* refine's breakpoints.csv */
  size_t nlocated;
  int refined;
  struct cal_pack_data pack;
  double pcal_forced[64];
  struct cal_fitted m;       /* the model */
  int have_m;
  char *extra;               /* the noise and held-out tables (report.txt and stderr) */
  size_t extralen;
  FILE *xf;                  /* writes extra */
  struct cal_noise_eval ev;
  int have_ev;
  int held_out, choose, forced_choice;
  hnm_model **members;       /* --bootstrap's */
  double pack_worst;
};

/* The options: 0, HNM_OPT_DONE (--help), or 2 with err. */
static int cal_fit__parse(int argc, char **argv, struct cal_fit__run *r, char *err, size_t errlen)
{
  struct cal_fit_args *a = &r->a;
  a->name = "calibrated";
  a->force_async = a->force_detached = -2;
  a->loss = -1; /* resolved below */
  a->seed = 1;
  a->smooth = 2;
  a->residual_sizes = 1;
  r->fc = (struct cal_fit__ctx){a, r->forced};
  a->penalty = a->noise_floor = NAN; /* not given: the fit's defaults (0 below) */
  const struct hnm_opt opts[] = {
    {.name = "output", .short_name = 'o', .kind = HNM_OPT_STRING, .arg = "FILE", .help = "model to write (required)", .value = &a->out},
    {.name = "report", .kind = HNM_OPT_STRING, .arg = "DIR", .help = "report directory (default: MODEL without .xml, plus -report; an existing one must be empty or hold a report.txt; see below)", .value = &a->report},
    {.name = "name", .kind = HNM_OPT_STRING, .arg = "NAME", .def = "calibrated", .help = "model name", .value = &a->name},
    {.name = "breakpoints", .kind = HNM_OPT_CALL, .arg = "LIST", .unit = "bytes", .help = "force breakpoints (increasing sizes 0 to 2^53, comma-separated: k <= b and k > b split)", .fn = cal_fit__breakpoints},
    {.name = "only-breakpoints", .kind = HNM_OPT_FLAG, .help = "no breakpoint other than the forced ones and the protocol thresholds", .value = &a->forced_only},
    {.name = "protocol", .kind = HNM_OPT_CALL, .arg = "A,D", .unit = "bytes", .help = "force the async and detached thresholds (sizes or none)", .fn = cal_fit__protocol},
    {.name = "penalty", .kind = HNM_OPT_NUMBER, .arg = "X", .help = "per-segment penalty in noise units (default 3 ln n)", .value = &a->penalty},
    {.name = "max-segments", .kind = HNM_OPT_LONG, .arg = "N", .help = "segments per operation (default 8)", .value = &r->max_segments, .min = 1, .max = 64},
    {.name = "min-sizes", .kind = HNM_OPT_LONG, .arg = "N", .help = "distinct sizes per segment (default 2)", .value = &r->min_sizes, .min = 1, .max = 64},
    {.name = "noise-floor", .kind = HNM_OPT_NUMBER, .arg = "X", .help = "lowest relative noise assumed (default 5e-3)", .value = &a->noise_floor},
    {.name = "no-plots", .kind = HNM_OPT_FLAG, .help = "skip gnuplot", .value = &r->no_plots},
    {.name = "loss", .kind = HNM_OPT_CALL, .arg = "abs|huber", .help = "robust loss of each segment's line (default: huber on raw measurements, abs on medians)", .fn = cal_fit__loss},
    {.name = "raw", .kind = HNM_OPT_FLAG, .help = "fit the raw measurements (the default, except with --platform-calibration)", .value = &r->raw},
    {.name = "medians", .kind = HNM_OPT_FLAG, .help = "fit each size's median (the default with --platform-calibration)", .value = &r->medians},
    {.name = "platform-calibration", .kind = HNM_OPT_STRING, .arg = "CONFIG.xml", .help = "fit the data of SimGrid's platform-calibration tool (the CSVs, breakpoints file, thresholds and saturation runs CONFIG names); no CSV operands", .value = &a->pcal},
    {.name = "auto-breakpoints", .kind = HNM_OPT_FLAG, .help = "with --platform-calibration: find breakpoints instead of using the file's", .value = &a->auto_bp},
    {.name = "file-breakpoints", .kind = HNM_OPT_FLAG, .help = "with --platform-calibration: the file's breakpoints (default: the file's or automatic ones, whichever predicts held-out round trips better)", .value = &a->file_bp},
    {.name = "bootstrap", .kind = HNM_OPT_LONG, .arg = "N", .help = "also write N bootstrap members beside the model, as the model set MODEL.set/ (docs/model-format.md)", .value = &a->bootstrap, .min = 1, .max = CAL_SET_MAX_MEMBERS},
    {.name = "seed", .kind = HNM_OPT_LONG, .arg = "N", .def = "1", .help = "the bootstrap's random seed", .value = &a->seed, .max = 1L << 40},
    {.name = "residual-sizes", .kind = HNM_OPT_LONG, .arg = "N", .def = "1", .help = "measured sizes pooled into each size's residual table for the stochastic mode: the size and (N-1)/2 on each side (odd; 0: no per-size table, the segments' only)", .value = &a->residual_sizes, .min = 0, .max = 99},
    {.name = "held-out", .kind = HNM_OPT_FLAG, .help = "report the held-out error (5 more fits; the default with --platform-calibration or --bootstrap); with run --refine's breakpoints.csv, also choose its breakpoints alone, with automatic ones, or automatic ones (the fewest decades over their bound)", .value = &a->held_out},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    "hnm-calibrate fit", "[OPTIONS] FILE.csv... -o MODEL.xml",
    "Reads the CSVs of `hnm-calibrate run` (p2p.csv, probe.csv, contention.csv, pack.csv; recognised by header)\n"
    "and writes a hybrid model file (docs/model-format.md) and a report directory.",
    "The report directory holds report.txt, PNG plots per operation, loggps.xml and fluid.xml fits (and pack.txt\n"
    "with a pack.csv).\n",
    NULL, 0, &r->fc};
  int first = hnm_opt_parse(&cmd, opts, argc, argv, err, errlen);
  if (first < 0)
    return first == HNM_OPT_DONE ? HNM_OPT_DONE : HNM_EXIT_USAGE;
  r->files = (const char **)argv + first;
  r->nfiles = argc - first;
  a->plots = !r->no_plots;
  a->max_segments = (int)r->max_segments;
  a->min_sizes = (int)r->min_sizes;
  return 0;
}

/* The options' values and how they combine: 0, or 2 with err. */
/* PATH as a place: its directory resolved (symbolic links, "..") and its
 * last name, so that two spellings of one place compare equal even when
 * nothing is there yet. NULL when the directory does not resolve. */
static char *cal_fit__place(const char *path)
{
  char dir[4096];
  size_t l = strlen(path);
  while (l > 1 && path[l - 1] == '/')
    l--;
  if (l >= sizeof dir)
    return NULL;
  memcpy(dir, path, l);
  dir[l] = '\0';
  char *slash = strrchr(dir, '/');
  const char *base = slash != NULL ? slash + 1 : dir;
  char *real = slash == NULL ? realpath(".", NULL) : slash == dir ? realpath("/", NULL) : (*slash = '\0', realpath(dir, NULL));
  if (real == NULL)
    return NULL;
  char *p = malloc(strlen(real) + strlen(base) + 2);
  if (p != NULL)
    sprintf(p, "%s/%s", real, base);
  free(real);
  return p;
}

/* Whether -o and --report name one place (the report directory would be
 * renamed where the model goes, then the model's rename would fail). */
static int cal_fit__same_place(const char *a, const char *b)
{
  if (hnm_out_same_file(a, b))
    return 1;
  char *pa = cal_fit__place(a), *pb = cal_fit__place(b);
  int same = pa != NULL && pb != NULL && strcmp(pa, pb) == 0;
  free(pa);
  free(pb);
  return same;
}

static int cal_fit__validate_options(struct cal_fit__run *r, char *err, size_t errlen)
{
  struct cal_fit_args *a = &r->a;
  if (a->residual_sizes % 2 == 0 && a->residual_sizes != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                           "fit: --residual-sizes %ld: give an odd number (the size and as many on each side) or 0",
                           a->residual_sizes);
  if (*a->name == '\0' || strpbrk(a->name, "<>&\"'") != NULL)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--name: '%s' is empty or has XML special characters", a->name);
  for (const unsigned char *c = (const unsigned char *)a->name; *c; c++)
    if (*c < 0x20 || *c == 0x7f)
      return hnm_fail_status(HNM_EXIT_USAGE, err, errlen,
                             "--name: a control character (byte 0x%02x) cannot be in a model name", *c);
  char bad[128];
  if (hnm_xml_text_check(a->name, bad, sizeof bad) != 0)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--name: %s (a model name is UTF-8 text)", bad);
  if (!isnan(a->penalty) && !(a->penalty > 0))
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--penalty: '%g' is not a number > 0", a->penalty);
  if (!isnan(a->noise_floor) && !(a->noise_floor > 0))
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--noise-floor: '%g' is not a number > 0", a->noise_floor);
  if (isnan(a->penalty))
    a->penalty = 0;
  if (isnan(a->noise_floor))
    a->noise_floor = 0;
  if (a->out == NULL)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "fit: -o MODEL.xml is required");
  if (a->report != NULL && *a->report == '\0')
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--report: empty directory name");
  if (a->report != NULL && strcmp(a->out, "-") != 0 && cal_fit__same_place(a->out, a->report))
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "--report: '%s' is also -o: the model and the report need two names",
                           a->report);
  /* An output that names an input would destroy the measurements. */
  for (int i = 0; i < r->nfiles; i++) {
    int is_out = hnm_out_same_file(a->out, r->files[i]);
    if (is_out || (a->report != NULL && hnm_out_same_file(a->report, r->files[i])))
      return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s: '%s' is the input file %s", is_out ? "-o" : "--report",
                             is_out ? a->out : a->report, r->files[i]);
  }
  if (a->pcal != NULL && hnm_out_same_file(a->out, a->pcal))
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "-o: '%s' is the input file %s", a->out, a->pcal);
  const char *why = NULL;
  if (r->nfiles == 0 && a->pcal == NULL)
    why = "fit: no CSV file given (nor --platform-calibration CONFIG.xml)";
  else if (r->nfiles > 0 && a->pcal != NULL)
    why = "fit: --platform-calibration reads its own CSVs: give no CSV file";
  else if (a->auto_bp && a->pcal == NULL)
    why = "fit: --auto-breakpoints needs --platform-calibration (without it, breakpoints are always found)";
  else if (a->file_bp && a->pcal == NULL)
    why = "fit: --file-breakpoints needs --platform-calibration (the breakpoints file is its)";
  else if (a->file_bp && a->auto_bp)
    why = "fit: --file-breakpoints and --auto-breakpoints exclude each other";
  if (why != NULL)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s", why);
  return 0;
}

/* The model set's place (refused before any fitting), --raw/--medians, and
 * the same measurements given twice (they would count double in every
 * median): 0, or a status with err. */
static int cal_fit__validate_places(struct cal_fit__run *r, char *err, size_t errlen)
{
  struct cal_fit_args *a = &r->a;
  if (a->bootstrap > 0) {
    char serr[HNM_ERRLEN];
    if (strcmp(a->out, "-") == 0 || strncmp(a->out, "/dev/", 5) == 0 || strncmp(a->out, "/proc/", 6) == 0)
      return hnm_fail_status(
          HNM_EXIT_USAGE, err, errlen,
          "fit: --bootstrap: -o '%s' is not a file: the model set goes beside the model file (MODEL.set/)", a->out);
    if (cal_set_path(a->out, r->setdir, sizeof r->setdir) != 0)
      return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "fit: --bootstrap: -o '%s': path too long", a->out);
    if (cal_set_check(r->setdir, serr, sizeof serr) != 0)
      return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "fit: %s", serr);
    size_t l = strlen(r->setdir);
    if (a->report != NULL && strncmp(a->report, r->setdir, l) == 0 && (a->report[l] == '\0' || a->report[l] == '/'))
      return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "fit: --report '%s' is (inside) the model set directory '%s'",
                             a->report, r->setdir);
  }
  if (r->raw && r->medians)
    return hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "fit: --raw and --medians exclude each other");
  /* hnm's benchmark: raw measurements and Huber (validated on this
   * machine's Open MPI, tests/calibration/real.sh); platform-calibration's
   * 33,000 rows per operation: per-size medians and the absolute loss
   * (30 times faster, as accurate on its clusters: docs/calibration.md). */
  a->raw = r->raw ? 1 : r->medians ? 0 : a->pcal == NULL;
  if (a->loss < 0)
    a->loss = a->raw ? HNM_FIT_LOSS_HUBER : HNM_FIT_LOSS_ABS;
  struct stat *seen = calloc((size_t)r->nfiles + 1, sizeof *seen);
  if (seen == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  int rc = 0;
  for (int i = 0; i < r->nfiles && rc == 0; i++) {
    if (stat(r->files[i], &seen[i]) != 0)
      rc = hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s: cannot open: %s", r->files[i], strerror(errno));
    for (int j = 0; j < i && rc == 0; j++)
      if (seen[j].st_dev == seen[i].st_dev && seen[j].st_ino == seen[i].st_ino)
        rc = hnm_fail_status(HNM_EXIT_USAGE, err, errlen, "%s: the same file as %s, given twice", r->files[i],
                             r->files[j]);
  }
  free(seen);
  return rc;
}

/* An existing report directory is written into only when it is empty or
 * holds a report.txt (the file every report has: an earlier report, made
 * by hnm): the files of a report would otherwise land among the user's
 * own (--report ~, or / as root). 0, or -1 with err. */
static int cal_fit__report_dir_ours(const char *dir, char *err, size_t errlen)
{
  DIR *d = opendir(dir);
  if (d == NULL)
    return 0; /* absent, or not a directory: hnm_out_dir_open() says */
  int other = 0;
  for (struct dirent *e; !other && (e = readdir(d)) != NULL;)
    other = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  if (!other)
    return 0;
  char p[4300];
  struct stat st;
  snprintf(p, sizeof p, "%s/report.txt", dir);
  if (lstat(p, &st) == 0 && S_ISREG(st.st_mode))
    return 0;
  return hnm_fail(err, errlen,
                  "--report: '%s' is a directory that is not empty and holds no report.txt (not a report of hnm): "
                  "give a new or empty directory",
                  dir);
}

/* -o is opened before anything is read, written or printed (the summary
 * and the decade table of --platform-calibration): a place it cannot be
 * written to is bad input, reported alone. Its temporary goes away on any
 * later refusal (hnm_out.h). The report directory is written whole or not
 * at all: into a temporary beside it, moved into place at the end; a
 * refusal or a failed write anywhere below leaves nothing of it
 * (core/hnm_out.h). 0, or 2 with err. */
static int cal_fit__open_outputs(struct cal_fit__run *r, char *err, size_t errlen)
{
  struct cal_fit_args *a = &r->a;
  r->out = hnm_out_open(a->out, "-o", err, errlen);
  if (r->out == NULL)
    return HNM_EXIT_USAGE;
  if (a->report == NULL && hnm_out_is_through(r->out)) {
    /* -o is a device or standard output: the report goes beside us. */
    snprintf(r->report, sizeof r->report, "%s-report", a->name);
    a->report = r->report;
  }
  if (a->report == NULL) {
    size_t l = strlen(a->out);
    if (l > 4 && strcmp(a->out + l - 4, ".xml") == 0)
      l -= 4;
    snprintf(r->report, sizeof r->report, "%.*s-report", (int)l, a->out);
    a->report = r->report;
  }
  if (cal_fit__report_dir_ours(a->report, err, errlen) != 0)
    return HNM_EXIT_USAGE;
  r->rdir = hnm_out_dir_open(a->report, "--report", err, errlen);
  return r->rdir == NULL ? HNM_EXIT_USAGE : 0;
}

/* The CSVs (pack.csv, refine's breakpoints.csv: its located breakpoints
 * are the only ones unless --breakpoints says otherwise, the others), or
 * platform-calibration's data. 0, or a status with err. */
static int cal_fit__read_inputs(struct cal_fit__run *r, char *err, size_t errlen)
{
  struct cal_fit_args *a = &r->a;
  for (int i = 0; i < r->nfiles; i++) {
    size_t nl;
    int rc, is_bp = 0;
    if (cal_pack_csv_is(r->files[i]))
      rc = cal_pack_csv_read(r->files[i], &r->pack, err, errlen);
    else if ((rc = cal_refine_read_breakpoints(r->files[i], r->located + r->nlocated, 40 - r->nlocated, &nl, &is_bp,
                                               err, errlen)) == 0 && is_bp)
      r->nlocated += nl, r->refined = 1;
    else if (rc == 0)
      rc = cal_read_csv(r->files[i], &r->in, err, errlen);
    if (rc != 0)
      return cal_fit__status(err);
  }
  if (a->nforced == 0 && r->refined) {
    a->forced = r->located;
    a->nforced = r->nlocated;
    a->forced_only = 1;
  }
  if (a->pcal != NULL)
    return cal_pcal_inputs(a, &r->in, r->pcal_forced, 64, &r->nfiles, err, errlen);
  return 0;
}

/* Decades whose held-out round-trip error exceeds max(10%, floor + 3
 * points) (docs/calibration.md, "Leave-one-cluster-out"). */
static size_t cal_fit__over(const struct cal_noise_eval *e)
{
  size_t n = 0;
  for (int d = 0; d < CAL_NOISE_DECADES; d++)
    if (e->dec_n[d] > 0 && e->dec_out[d] >= 0 && e->dec_floor[d] >= 0)
      n += e->dec_out[d] > fmax(0.10, e->dec_floor[d] + 0.03);
  return n;
}

static const char *cal_fit__bp_label(const struct cal_fit_args *c)
{
  return c->auto_bp ? "automatic" : c->forced_only ? "the file's" : "the file's and automatic";
}

/* With platform-calibration's data, candidate fits: the file's breakpoints
 * and automatic ones (unless forced), each with a running median over
 * none, 5 or 11 sizes; the smallest held-out round-trip error over all
 * sizes is the model (ties: the earlier candidate). The clusters disagree
 * on the best smoothing (plafrim and miriel: none or 5 sizes, taurus: 11;
 * docs/calibration.md), and the held-out error is what tells. With run
 * --refine's breakpoints file instead: its breakpoints alone, with
 * automatic ones besides, or automatic ones alone, the fewest decades over
 * their bound held out first (a curve that bends where nothing was
 * located; docs/calibration.md). */
/* The candidates of cal_fit__choose into cand[6]; their count. */
static size_t cal_fit__candidates(const struct cal_fit__run *r, struct cal_fit_args *cand)
{
  const struct cal_fit_args *a = &r->a;
  if (a->pcal == NULL) {
    /* run --refine's breakpoints file: its breakpoints alone (the fit made
     * first), with automatic ones besides, or automatic ones alone. */
    cand[0] = *a;
    cand[1] = *a;
    cand[1].forced_only = 0;
    cand[2] = *a;
    cand[2].forced = NULL;
    cand[2].nforced = 0;
    cand[2].forced_only = 0;
    cand[2].auto_bp = 1;
    return 3;
  }
  int have_file = a->forced == r->pcal_forced && a->nforced > 0;
  static const int smooths[3] = {2, 0, 5};
  size_t nc = 0;
  for (int bp = 0; bp < 2; bp++) {
    if ((bp == 0 && (!have_file || a->auto_bp)) || (bp == 1 && a->file_bp))
      continue;
    for (int j = 0; j < 3; j++) {
      cand[nc] = *a;
      cand[nc].smooth = smooths[j];
      if (bp == 1) {
        cand[nc].forced = NULL;
        cand[nc].nforced = 0;
        cand[nc].forced_only = 0;
        cand[nc].auto_bp = 1;
      }
      nc++;
    }
  }
  return nc;
}

static int cal_fit__choose(struct cal_fit__run *r, char *err, size_t errlen)
{
  struct cal_fit_args *a = &r->a;
  struct cal_fit_args cand[6];
  size_t nc = cal_fit__candidates(r, cand);
  struct cal_fit_args best = *a; /* the fit made first, until another is better */
  int best_is_m = 1; /* the chosen fit is the one made first (its residuals and RMA fitted) */
  struct cal_fitted bm = r->m;
  struct cal_noise_eval be = r->ev;
  fprintf(r->xf, "Candidate fits (round-trip error over all sizes):\n");
  for (size_t c = 0; c < nc; c++) {
    struct cal_fitted mc;
    struct cal_noise_eval ec;
    int is_m = c == 0 && cand[0].smooth == a->smooth && cand[0].auto_bp == a->auto_bp && cand[0].forced == a->forced &&
               cand[0].forced_only == a->forced_only;
    char sm[48] = "no running median:", bl[64];
    if (cand[c].smooth > 0)
      snprintf(sm, sizeof sm, "running median of %d sizes:", 2 * cand[c].smooth + 1);
    snprintf(bl, sizeof bl, "%s breakpoints,", cal_fit__bp_label(&cand[c]));
    int width = a->pcal != NULL ? 23 : 36;
    if (is_m) {
      mc = r->m; /* the fit made first */
      ec = r->ev;
    } else {
      int rc = cal_fit__model(&r->in, &cand[c], &mc, err, errlen);
      if (rc != 0 && rc != HNM_EXIT_FAILURE) {
        /* Segments that the data cannot fill (a breakpoint, added to the
         * file's, leaving an operation one size): not a candidate; the fit
         * made first stands. */
        fprintf(r->xf, "  %-*s %-28s not fitted: %s\n", width, bl, sm, err);
        err[0] = '\0';
        continue;
      }
      if (rc == 0) {
        mc.nfiles = r->nfiles;
        if ((rc = cal_noise_evaluate(&r->in, &cand[c], &mc, cal_fit__model, &ec, err, errlen)) != 0)
          hnm_fit_result_free(&mc.f);
      }
      if (rc != 0) {
        r->m = bm; /* what is left to free */
        r->ev = be;
        return rc;
      }
    }
    char ho[32] = "-";
    if (ec.all_out >= 0)
      snprintf(ho, sizeof ho, "%.2f%%", 100 * ec.all_out);
    size_t over = ec.all_out >= 0 ? cal_fit__over(&ec) : 0;
    if (a->pcal == NULL && ec.all_out >= 0)
      snprintf(sm, sizeof sm, "%zu decade(s) over bound:", over);
    else if (a->pcal == NULL)
      snprintf(sm, sizeof sm, "not held out:");
    fprintf(r->xf, "  %-*s %-28s held-out %7s, in-sample %6.2f%%, %zu segments\n", width, bl, sm, ho, 100 * ec.all_in,
            mc.f.nseg);
    /* With refine's breakpoints, first the fewest decades over their
     * bound (held out), then the error over all sizes. */
    int better = c > 0 && ec.all_out >= 0 && (be.all_out < 0 || ec.all_out < be.all_out);
    if (a->pcal == NULL && c > 0 && ec.all_out >= 0 && be.all_out >= 0 && over != cal_fit__over(&be))
      better = over < cal_fit__over(&be);
    if (c == 0 || better) {
      if (c > 0 || !is_m) { /* the fit it replaces */
        hnm_fit_result_free(&bm.f);
        cal_noise_eval_free(&be);
      }
      bm = mc;
      be = ec;
      best = cand[c];
      best_is_m = is_m;
    } else {
      hnm_fit_result_free(&mc.f);
      cal_noise_eval_free(&ec);
    }
  }
  r->m = bm;
  r->ev = be;
  *a = best;
  /* A candidate fit is the model alone: the chosen one gets its RMA fit
   * and its residuals (for the stochastic mode) as the first fit did. */
  int rc = best_is_m ? 0 : cal_fit__complete(&r->in, a, &r->m, err, errlen);
  if (rc != 0)
    return rc;
  fprintf(r->xf, "Round trip, the chosen fit (%zu segments): median |model - median| / median\n", r->m.f.nseg);
  cal_noise_print(r->xf, "  ", &r->ev);
  const char *chosen = a->auto_bp ? "automatic ones" : a->forced_only ? "the file's" : "the file's and automatic ones";
  if (r->ev.all_out < 0)
    fprintf(r->xf, "Breakpoints: %s (no held-out comparison: a fold of sizes left a breakpoint too few sizes)\n",
            chosen);
  else if (a->pcal == NULL)
    fprintf(r->xf, "Breakpoints: %s chosen: %zu decade(s) over max(10%%, floor + 3 points) held out, then held-out "
                   "round-trip error %.2f%% over all sizes, the best of %zu candidate fits (--breakpoints LIST "
                   "--only-breakpoints to force the file's)\n",
            chosen, cal_fit__over(&r->ev), 100 * r->ev.all_out, nc);
  else
    fprintf(r->xf, "Breakpoints: %s chosen: held-out round-trip error %.2f%% over all sizes, the smallest of %zu "
                   "candidate fits (running median of %d size(s); --file-breakpoints or --auto-breakpoints to "
                   "choose the breakpoints)\n",
            chosen, 100 * r->ev.all_out, nc, 2 * a->smooth + 1);
  return 0;
}

/* The model: the central fit, its round trip against the data's noise
 * floor, in-sample and held out; with the file's breakpoints by default,
 * the automatic ones too, and the one whose held-out round trips are
 * closer is the model. Then checked, and the pack costs. */
static int cal_fit__fit(struct cal_fit__run *r, char *err, size_t errlen)
{
  struct cal_fit_args *a = &r->a;
  int rc = cal_fit__model(&r->in, a, &r->m, err, errlen);
  if (rc != 0)
    return rc;
  r->have_m = 1;
  if ((rc = cal_fit__complete(&r->in, a, &r->m, err, errlen)) != 0)
    return rc;
  r->m.nfiles = r->nfiles;
  r->xf = open_memstream(&r->extra, &r->extralen);
  if (r->xf == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  /* The held-out fits cost 5 fits: made where they choose the breakpoints
   * or give the bootstrap its residuals, or when asked. */
  r->held_out = a->pcal != NULL || a->bootstrap > 0 || a->held_out;
  if ((rc = cal_noise_evaluate(&r->in, a, &r->m, r->held_out ? cal_fit__model : NULL, &r->ev, err, errlen)) != 0)
    return rc;
  r->have_ev = 1;
  /* With platform-calibration's medians, or with run --refine's breakpoints
   * file (not overridden by --breakpoints): the breakpoints the held-out
   * round trips prefer. */
  r->choose = r->held_out && ((a->pcal != NULL && !a->raw) ||
                              (a->pcal == NULL && r->refined && a->forced == r->located && a->nforced > 0));
  r->forced_choice = a->file_bp || a->auto_bp;
  if (r->choose)
    rc = cal_fit__choose(r, err, errlen);
  else {
    fprintf(r->xf, "Round trip (%zu segments): median |model - median| / median\n", r->m.f.nseg);
    cal_noise_print(r->xf, "  ", &r->ev);
  }
  if (rc != 0)
    return rc;
  fprintf(r->xf,
          "(per size decade, the median over its sizes; noise floor: the error of the median of the %d nearest "
          "sizes' medians, the best a function of size alone does; held-out: %s)\n",
          CAL_NOISE_WIDTH,
          !r->held_out     ? "not computed, --held-out does"
          : r->ev.heldout ? "5 fits, each without every 5th size"
                          : "not computed, a fold of sizes left a breakpoint too few sizes");
  int closed = fclose(r->xf);
  r->xf = NULL;
  if (closed != 0)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  if ((rc = cal_fit__check(&r->m, err, errlen)) != 0)
    return rc;
  if (r->pack.n > 0) {
    if (cal_pack_fit(&r->pack, &r->m.pack, err, errlen) != 0)
      return HNM_EXIT_USAGE;
    r->m.has_pack = 1;
  }
  return 0;
}

/* Bootstrap: each member fitted to a replicate of the measurements, then
 * given the size-to-size scatter of held-out sizes (cal_noise_perturb). */
static int cal_fit__bootstrap(struct cal_fit__run *r, char *err, size_t errlen)
{
  struct cal_fit_args *a = &r->a;
  r->members = calloc((size_t)a->bootstrap, sizeof *r->members);
  if (r->members == NULL)
    return hnm_fail_status(HNM_EXIT_FAILURE, err, errlen, "out of memory");
  uint64_t state = (uint64_t)a->seed * 0x9E3779B97F4A7C15ULL + 1;
  for (long i = 0; i < a->bootstrap; i++) {
    struct cal_inputs t;
    struct cal_fitted mi;
    int rc = cal_noise_resample(&r->in, &t, &state, err, errlen);
    if (rc != 0)
      return rc;
    rc = cal_fit__model(&t, a, &mi, err, errlen);
    if (rc == 0 && (rc = cal_noise_perturb(&mi, &r->ev, (size_t)i, (size_t)a->bootstrap, (uint64_t)a->seed, err,
                                           errlen)) == 0) {
      mi.nfiles = r->nfiles;
      /* The pack costs are fitted once, outside the bootstrap: every member
       * carries the central model's. */
      mi.pack = r->m.pack;
      mi.has_pack = r->m.has_pack;
      mi.member = (int)i + 1;
      mi.members = (int)a->bootstrap;
      rc = cal_fit__check(&mi, err, errlen);
    }
    if (rc == 0) {
      char name[600];
      snprintf(name, sizeof name, "%s-member-%03ld", a->name, i + 1);
      r->members[i] = cal_build_hybrid(&mi, name, err, errlen);
      if (r->members[i] == NULL)
        rc = HNM_EXIT_FAILURE;
    }
    hnm_fit_result_free(&mi.f);
    cal_noise_inputs_free(&t);
    if (rc != 0)
      return rc;
  }
  return 0;
}

/* The model set MODEL.set/: the central model and the members. */
static int cal_fit__write_set(struct cal_fit__run *r, char *err, size_t errlen)
{
  hnm_model *central = cal_build_hybrid(&r->m, r->a.name, err, errlen);
  if (central == NULL)
    return -1;
  int rc = cal_set_write(r->setdir, central, r->members, (size_t)r->a.bootstrap, err, errlen);
  hnm_model_free(central);
  return rc;
}

/* The model first, flushed (a full disk, /dev/full) before the report is
 * written; renamed into place after it. 0, or HNM_EXIT_FAILURE with err. */
static int cal_fit__write(struct cal_fit__run *r, char *err, size_t errlen)
{
  struct cal_fit_args *a = &r->a;
  hnm_out *out = r->out;
  r->out = NULL; /* consumed below */
  if (cal_write_model_finish(out, a->out, cal_build_hybrid, &r->m, a->name, err, errlen) != 0)
    return HNM_EXIT_FAILURE;
  const char *rtmp = hnm_out_dir_path(r->rdir);
  char p[4300];
  int ok = 1;
  snprintf(p, sizeof p, "%s/loggps.xml", rtmp);
  ok = ok && cal_write_model(p, cal_build_loggps, &r->m, a->name, err, errlen) == 0;
  snprintf(p, sizeof p, "%s/fluid.xml", rtmp);
  ok = ok && cal_write_model(p, cal_build_fluid, &r->m, a->name, err, errlen) == 0;
  ok = ok && cal_write_report(rtmp, a->report, &r->m, &r->in, a->out, a->plots, r->extra, err, errlen) == 0;
  ok = ok && (!r->m.has_pack ||
              cal_fit__write_pack_report(rtmp, &r->pack, &r->m.pack, &r->pack_worst, err, errlen) == 0);
  ok = ok && (a->bootstrap == 0 || cal_fit__write_set(r, err, errlen) == 0);
  if (ok) {
    hnm_out_dir *rdir = r->rdir;
    r->rdir = NULL; /* consumed */
    ok = hnm_out_dir_commit(rdir, err, errlen) == 0;
  }
  if (!ok) {
    hnm_out_abort(out);
    return HNM_EXIT_FAILURE;
  }
  return hnm_out_commit(out, err, errlen) == 0 ? 0 : HNM_EXIT_FAILURE;
}

/* Everything is in place: now what stderr has to say (an error above
 * stays one line), and the plots. 0, or a status with err (the other
 * fit of --platform-calibration). */
static int cal_fit__report(struct cal_fit__run *r, char *err, size_t errlen)
{
  struct cal_fit_args *a = &r->a;
  cal_report_plots(a->report, &r->m, &r->in, a->plots);
  if (a->pcal != NULL && (r->forced_choice || !r->choose)) {
    int rc = cal_pcal_compare(a, &r->in, &r->m, cal_fit__model, err, errlen);
    if (rc != 0)
      return rc;
  }
  if (r->m.has_pack)
    hnm_msg_info("pack costs fitted; held-out patterns within %.1f%% (interpreted), see %s/pack.txt",
                 100 * r->pack_worst, a->report);
  if (a->pcal != NULL)
    hnm_msg_info("%s", cal_pcal_summary());
  cal_fit__print_lines(r->m.f.notes);
  /* The table once everything is written: an error above stays one line. */
  size_t xl = strlen(r->extra); /* a table of whole lines: one message */
  if (xl > 0)
    hnm_msg_info("%.*s", (int)(r->extra[xl - 1] == '\n' ? xl - 1 : xl), r->extra);
  if (a->bootstrap > 0)
    hnm_msg_info("wrote %s (%zu segments), %s/ (the central model and %ld members) and %s/", a->out, r->m.f.nseg,
                 r->setdir, a->bootstrap, a->report);
  else
    hnm_msg_info("wrote %s (%zu segments) and %s/", a->out, r->m.f.nseg, a->report);
  return 0;
}

static void cal_fit__free(struct cal_fit__run *r)
{
  hnm_out_abort(r->out);
  if (r->rdir != NULL)
    hnm_out_dir_abort(r->rdir);
  if (r->xf != NULL)
    fclose(r->xf);
  for (long i = 0; r->members != NULL && i < r->a.bootstrap; i++)
    hnm_model_free(r->members[i]);
  free(r->members);
  if (r->have_ev)
    cal_noise_eval_free(&r->ev);
  free(r->extra);
  cal_inputs_free(&r->in);
  cal_pack_data_free(&r->pack);
  if (r->have_m)
    hnm_fit_result_free(&r->m.f);
}

int cal_cmd_fit(int argc, char **argv)
{
  static struct cal_fit__run r; /* large: not on the stack */
  memset(&r, 0, sizeof r);
  char err[HNM_ERRLEN] = "";
  int rc = cal_fit__parse(argc, argv, &r, err, sizeof err);
  if (rc == HNM_OPT_DONE)
    return HNM_EXIT_OK;
  if (rc == 0)
    rc = cal_fit__validate_options(&r, err, sizeof err);
  if (rc == 0)
    rc = cal_fit__validate_places(&r, err, sizeof err);
  if (rc == 0)
    rc = cal_fit__open_outputs(&r, err, sizeof err);
  if (rc == 0)
    rc = cal_fit__read_inputs(&r, err, sizeof err);
  if (rc == 0)
    rc = cal_fit__fit(&r, err, sizeof err);
  if (rc == 0 && r.a.bootstrap > 0)
    rc = cal_fit__bootstrap(&r, err, sizeof err);
  if (rc == 0)
    rc = cal_fit__write(&r, err, sizeof err);
  if (rc == 0)
    rc = cal_fit__report(&r, err, sizeof err);
  cal_fit__free(&r);
  if (rc == HNM_EXIT_USAGE)
    return hnm_msg_error("%s", err);
  if (rc != 0)
    return hnm_msg_failure("%s", err);
  return 0;
}
