/* hnm-calibrate fit: the fit command. It reads the CSVs, fits them with
 * libhnmfit's procedure (hnm_fit_model.h), as often as the held-out
 * errors, the candidate breakpoint sets and the bootstrap ask, and writes
 * the model, the report and the model set.
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_fit.h"
#include "hnm_model.h"
#include "hnm_units.h"

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
#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_fitted.h"
#include "hnm_calibrate_rma.h"
#include "hnm_calibrate_report.h"
#include "hnm_calibrate_noise.h"
#include "hnm_calibrate_pack.h"
#include "hnm_calibrate_set.h"

/* Each line of TEXT (whole lines; a last one may be cut by its buffer's
 * end) as one message. */
static void cal_print_lines(const char *text)
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

/* One fit of IN with A's options into M (hnm_fit_model.h), as every fit
 * of the command makes it (the central one, held-out folds, candidates,
 * bootstrap members): the probe's notes shown as the fit reads them; a
 * refusal ends the tool (exit 2, one line). */
static void cal_fit_model(struct cal_inputs *in, const struct cal_fit_args *a, struct cal_fitted *m)
{
  hnm_fit_data d;
  cal_inputs_data(in, &d);
  hnm_fit_model_options o = {.penalty = a->penalty, .noise_floor = a->noise_floor, .max_segments = a->max_segments,
                             .min_sizes = a->min_sizes, .forced = a->forced, .nforced = a->nforced,
                             .forced_only = a->forced_only, .loss = a->loss, .raw = a->raw, .smooth = a->smooth,
                             .have_protocol = a->force_detached > -2, .async = a->force_async,
                             .detached = a->force_detached};
  char err[HNM_ERRLEN];
  memset(m, 0, sizeof *m);
  if (hnm_fit_model(&d, &o, &m->f, err, sizeof err) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", err);
  cal_print_lines(m->f.protocol_notes);
}


/* A size option's value: bytes (units allowed), or "none" (-1). */
static int size_value(const char *v, double *out, char *err, size_t errlen)
{
  char why[256];
  double b;
  if (strcmp(v, "none") == 0) {
    *out = -1;
    return 0;
  }
  if (hnm_parse_size(v, &b, why, sizeof why) != 0 && !(cal_parse_field(v, &b))) {
    snprintf(err, errlen, "'%s': not a size (%s)", v, why);
    return -1;
  }
  if (b != floor(b) || b < 0) {
    snprintf(err, errlen, "'%s': not a whole number of bytes", v);
    return -1;
  }
  *out = b;
  return 0;
}

static int fit__loss(void *ctx, const char *v, char *err, size_t errlen);

struct fit_ctx {
  struct cal_fit_args *a;
  double *forced; /* [40] */
};

static int fit__breakpoints(void *ctx, const char *v, char *err, size_t errlen)
{
  struct fit_ctx *fc = ctx;
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", v);
  fc->a->nforced = 0;
  for (char *sv, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
    double b;
    if (fc->a->nforced == 40) {
      snprintf(err, errlen, "at most 40");
      return -1;
    }
    if (size_value(t, &b, err, errlen) != 0)
      return -1;
    if (b < 0) {
      snprintf(err, errlen, "'none' is not a breakpoint");
      return -1;
    }
    fc->forced[fc->a->nforced++] = b;
  }
  fc->a->forced = fc->forced;
  return 0;
}

static int fit__loss(void *ctx, const char *v, char *err, size_t errlen)
{
  struct cal_fit_args *a = ((struct fit_ctx *)ctx)->a;
  if (strcmp(v, "abs") != 0 && strcmp(v, "huber") != 0) {
    snprintf(err, errlen, "'%s': expected abs or huber", v);
    return -1;
  }
  a->loss = v[0] == 'a' ? HNM_FIT_LOSS_ABS : HNM_FIT_LOSS_HUBER;
  return 0;
}

static int fit__protocol(void *ctx, const char *v, char *err, size_t errlen)
{
  struct cal_fit_args *a = ((struct fit_ctx *)ctx)->a;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", v);
  char *c = strchr(buf, ',');
  if (c == NULL) {
    snprintf(err, errlen, "'%s': expected ASYNC,DETACHED", v);
    return -1;
  }
  *c = '\0';
  if (size_value(buf, &a->force_async, err, errlen) != 0 || size_value(c + 1, &a->force_detached, err, errlen) != 0)
    return -1;
  if (a->force_async >= 0 && (a->force_detached < 0 || a->force_async > a->force_detached)) {
    snprintf(err, errlen, "'%s': async > detached", v);
    return -1;
  }
  return 0;
}

/* The fitted values within the ranges a model file accepts, or the end
 * of the tool (nothing written). */
static void check_fitted(const struct cal_fitted *m)
{
  char err[HNM_ERRLEN];
  if (hnm_fit_check(&m->f, err, sizeof err) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", err);
}

/* DIR/pack.txt: the pack fit per pattern (hnm_calibrate_pack.h); its
 * summary line on stderr. */
static double write_pack_report(const char *dir, const struct cal_pack_data *d, const struct hnm_pack_model *p)
{
  char path[4300], oerr[1024];
  snprintf(path, sizeof path, "%s/pack.txt", dir);
  hnm_out *o = hnm_out_open(path, "--report", oerr, sizeof oerr);
  if (o == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  double worst = cal_pack_report(hnm_out_file(o), d, p);
  if (hnm_out_commit(o, oerr, sizeof oerr) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  return worst;
}

/* What the model has beyond its segments: the RMA fit and, for the
 * stochastic mode, each segment's residuals. */
static void fit__complete(const struct cal_inputs *in, const struct cal_fit_args *a, struct cal_fitted *m)
{
  hnm_fit_data d;
  char err[HNM_ERRLEN];
  cal_fit_rma(in, m);
  cal_inputs_data(in, &d);
  if (hnm_fit_residuals_window(&d, &m->f, (size_t)a->residual_sizes, err, sizeof err) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", err);
}

int cal_cmd_fit(int argc, char **argv)
{
  struct cal_fit_args a = {0};
  a.name = "calibrated";
  a.force_async = a.force_detached = -2;
  double forced[40];
  long max_segments = 0, min_sizes = 0;
  int no_plots = 0, raw = 0, medians = 0;
  a.loss = -1; /* resolved below */
  a.seed = 1;
  a.smooth = 2;
  a.residual_sizes = 1;
  struct fit_ctx fc = {&a, forced};
  a.penalty = a.noise_floor = NAN; /* not given: the fit's defaults (0 below) */
  const struct hnm_opt opts[] = {
    {.name = "output", .short_name = 'o', .kind = HNM_OPT_STRING, .arg = "FILE", .help = "model to write (required)", .value = &a.out},
    {.name = "report", .kind = HNM_OPT_STRING, .arg = "DIR", .help = "report directory (default: MODEL without .xml, plus -report; see below)", .value = &a.report},
    {.name = "name", .kind = HNM_OPT_STRING, .arg = "NAME", .def = "calibrated", .help = "model name", .value = &a.name},
    {.name = "breakpoints", .kind = HNM_OPT_CALL, .arg = "LIST", .unit = "bytes", .help = "force breakpoints (comma-separated sizes: k <= b and k > b split)", .fn = fit__breakpoints},
    {.name = "only-breakpoints", .kind = HNM_OPT_FLAG, .help = "no breakpoint other than the forced ones and the protocol thresholds", .value = &a.forced_only},
    {.name = "protocol", .kind = HNM_OPT_CALL, .arg = "A,D", .unit = "bytes", .help = "force the async and detached thresholds (sizes or none)", .fn = fit__protocol},
    {.name = "penalty", .kind = HNM_OPT_NUMBER, .arg = "X", .help = "per-segment penalty in noise units (default 3 ln n)", .value = &a.penalty},
    {.name = "max-segments", .kind = HNM_OPT_LONG, .arg = "N", .help = "segments per operation (default 8)", .value = &max_segments, .min = 1, .max = 64},
    {.name = "min-sizes", .kind = HNM_OPT_LONG, .arg = "N", .help = "distinct sizes per segment (default 2)", .value = &min_sizes, .min = 1, .max = 64},
    {.name = "noise-floor", .kind = HNM_OPT_NUMBER, .arg = "X", .help = "lowest relative noise assumed (default 5e-3)", .value = &a.noise_floor},
    {.name = "no-plots", .kind = HNM_OPT_FLAG, .help = "skip gnuplot", .value = &no_plots},
    {.name = "loss", .kind = HNM_OPT_CALL, .arg = "abs|huber", .help = "robust loss of each segment's line (default: huber on raw measurements, abs on medians)", .fn = fit__loss},
    {.name = "raw", .kind = HNM_OPT_FLAG, .help = "fit the raw measurements (the default, except with --platform-calibration)", .value = &raw},
    {.name = "medians", .kind = HNM_OPT_FLAG, .help = "fit each size's median (the default with --platform-calibration)", .value = &medians},
    {.name = "platform-calibration", .kind = HNM_OPT_STRING, .arg = "CONFIG.xml", .help = "fit the data of SimGrid's platform-calibration tool (the CSVs, breakpoints file, thresholds and saturation runs CONFIG names); no CSV operands", .value = &a.pcal},
    {.name = "auto-breakpoints", .kind = HNM_OPT_FLAG, .help = "with --platform-calibration: find breakpoints instead of using the file's", .value = &a.auto_bp},
    {.name = "file-breakpoints", .kind = HNM_OPT_FLAG, .help = "with --platform-calibration: the file's breakpoints (default: the file's or automatic ones, whichever predicts held-out round trips better)", .value = &a.file_bp},
    {.name = "bootstrap", .kind = HNM_OPT_LONG, .arg = "N", .help = "also write N bootstrap members beside the model, as the model set MODEL.set/ (docs/model-format.md)", .value = &a.bootstrap, .min = 1, .max = CAL_SET_MAX_MEMBERS},
    {.name = "seed", .kind = HNM_OPT_LONG, .arg = "N", .def = "1", .help = "the bootstrap's random seed", .value = &a.seed, .max = 1L << 40},
    {.name = "residual-sizes", .kind = HNM_OPT_LONG, .arg = "N", .def = "1", .help = "measured sizes pooled into each size's residual table for the stochastic mode: the size and (N-1)/2 on each side (odd; 0: no per-size table, the segments' only)", .value = &a.residual_sizes, .min = 0, .max = 99},
    {.name = "held-out", .kind = HNM_OPT_FLAG, .help = "report the held-out error (5 more fits; the default with --platform-calibration or --bootstrap)", .value = &a.held_out},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    "hnm-calibrate fit", "[OPTIONS] FILE.csv... -o MODEL.xml",
    "Reads the CSVs of `hnm-calibrate run` (p2p.csv, probe.csv, contention.csv, pack.csv; recognised by header)\n"
    "and writes a hybrid model file (docs/model-format.md) and a report directory.",
    "The report directory holds report.txt, PNG plots per operation, loggps.xml and fluid.xml fits (and pack.txt\n"
    "with a pack.csv).\n",
    NULL, 0, &fc};
  char opt_err[HNM_ERRLEN];
  int first = hnm_opt_parse(&cmd, opts, argc, argv, opt_err, sizeof opt_err);
  if (first < 0)
    return first == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", opt_err);
  const char **files = (const char **)argv + first;
  int nfiles = argc - first;
  a.plots = !no_plots;
  a.max_segments = (int)max_segments;
  if (a.residual_sizes % 2 == 0 && a.residual_sizes != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: --residual-sizes %ld: give an odd number (the size and as many on each side) or 0",
                a.residual_sizes);
  a.min_sizes = (int)min_sizes;
  if (*a.name == '\0' || strpbrk(a.name, "<>&\"'") != NULL)
    return hnm_msg_option_error("--name", "'%s' is empty or has XML special characters", a.name);
  if (!isnan(a.penalty) && !(a.penalty > 0))
    return hnm_msg_option_error("--penalty", "'%g' is not a number > 0", a.penalty);
  if (!isnan(a.noise_floor) && !(a.noise_floor > 0))
    return hnm_msg_option_error("--noise-floor", "'%g' is not a number > 0", a.noise_floor);
  if (isnan(a.penalty))
    a.penalty = 0;
  if (isnan(a.noise_floor))
    a.noise_floor = 0;
  if (a.out == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: -o MODEL.xml is required");
  if (a.report != NULL && *a.report == '\0')
    return hnm_msg_option_error("--report", "empty directory name");
  /* An output that names an input would destroy the measurements. */
  for (int i = 0; i < nfiles; i++)
    if (hnm_out_same_file(a.out, files[i]) || (a.report != NULL && hnm_out_same_file(a.report, files[i])))
      hnm_msg_die(HNM_EXIT_USAGE, "%s: '%s' is the input file %s", hnm_out_same_file(a.out, files[i]) ? "-o" : "--report",
          hnm_out_same_file(a.out, files[i]) ? a.out : a.report, files[i]);
  if (a.pcal != NULL && hnm_out_same_file(a.out, a.pcal))
    hnm_msg_die(HNM_EXIT_USAGE, "-o: '%s' is the input file %s", a.out, a.pcal);
  if (nfiles == 0 && a.pcal == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: no CSV file given (nor --platform-calibration CONFIG.xml)");
  if (nfiles > 0 && a.pcal != NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: --platform-calibration reads its own CSVs: give no CSV file");
  if (a.auto_bp && a.pcal == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: --auto-breakpoints needs --platform-calibration (without it, breakpoints are always found)");
  if (a.file_bp && a.pcal == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: --file-breakpoints needs --platform-calibration (the breakpoints file is its)");
  if (a.file_bp && a.auto_bp)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: --file-breakpoints and --auto-breakpoints exclude each other");
  /* The model set's place, refused before any fitting. */
  char setdir[4200] = "";
  if (a.bootstrap > 0) {
    char serr[4600];
    if (strcmp(a.out, "-") == 0 || strncmp(a.out, "/dev/", 5) == 0 || strncmp(a.out, "/proc/", 6) == 0)
      hnm_msg_die(HNM_EXIT_USAGE, "fit: --bootstrap: -o '%s' is not a file: the model set goes beside the model file (MODEL.set/)", a.out);
    if (cal_set_path(a.out, setdir, sizeof setdir) != 0)
      hnm_msg_die(HNM_EXIT_USAGE, "fit: --bootstrap: -o '%s': path too long", a.out);
    if (cal_set_check(setdir, serr, sizeof serr) != 0)
      hnm_msg_die(HNM_EXIT_USAGE, "fit: %s", serr);
    size_t l = strlen(setdir);
    if (a.report != NULL && strncmp(a.report, setdir, l) == 0 && (a.report[l] == '\0' || a.report[l] == '/'))
      hnm_msg_die(HNM_EXIT_USAGE, "fit: --report '%s' is (inside) the model set directory '%s'", a.report, setdir);
  }
  if (raw && medians)
    hnm_msg_die(HNM_EXIT_USAGE, "fit: --raw and --medians exclude each other");
  /* hnm's benchmark: raw measurements and Huber (validated on this
   * machine's Open MPI, tests/calibration/real.sh); platform-calibration's
   * 33,000 rows per operation: per-size medians and the absolute loss
   * (30 times faster, as accurate on its clusters: docs/calibration.md). */
  a.raw = raw ? 1 : medians ? 0 : a.pcal == NULL;
  if (a.loss < 0)
    a.loss = a.raw ? HNM_FIT_LOSS_HUBER : HNM_FIT_LOSS_ABS;
  char report[4200], oerr[1024];
  hnm_out *out = NULL;
  /* The same measurements twice would count double in every median. */
  struct stat *seen = calloc((size_t)nfiles + 1, sizeof *seen);
  if (seen == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  for (int i = 0; i < nfiles; i++) {
    if (stat(files[i], &seen[i]) != 0)
      hnm_msg_die(HNM_EXIT_USAGE, "%s: cannot open: %s", files[i], strerror(errno));
    for (int j = 0; j < i; j++)
      if (seen[j].st_dev == seen[i].st_dev && seen[j].st_ino == seen[i].st_ino)
        hnm_msg_die(HNM_EXIT_USAGE, "%s: the same file as %s, given twice", files[i], files[j]);
  }
  free(seen);
  /* -o is opened before anything is read, written or printed (the summary
   * and the decade table of --platform-calibration): a place it cannot be
   * written to is bad input, reported alone. Its temporary goes away on
   * any later refusal (hnm_out.h). */
  out = hnm_out_open(a.out, "-o", oerr, sizeof oerr);
  if (out == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  if (a.report == NULL && hnm_out_is_through(out)) {
    /* -o is a device or standard output: the report goes beside us. */
    snprintf(report, sizeof report, "%s-report", a.name);
    a.report = report;
  }
  if (a.report == NULL) {
    size_t l = strlen(a.out);
    if (l > 4 && strcmp(a.out + l - 4, ".xml") == 0)
      l -= 4;
    snprintf(report, sizeof report, "%.*s-report", (int)l, a.out);
    a.report = report;
  }
  /* The report directory is written whole or not at all: into a temporary
   * beside it, moved into place at the end; a refusal or a failed write
   * anywhere below leaves nothing of it (core/hnm_out.h). */
  hnm_out_dir *rdir = hnm_out_dir_open(a.report, "--report", oerr, sizeof oerr);
  if (rdir == NULL) {
    hnm_out_abort(out);
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  }
  struct cal_inputs in;
  memset(&in, 0, sizeof in);
  /* refine's breakpoints.csv: its located breakpoints are the only ones
   * (unless --breakpoints says otherwise). */
  double located[64];
  size_t nlocated = 0;
  int refined = 0;
  struct cal_pack_data pack = {NULL, 0, 0, 0};
  for (int i = 0; i < nfiles; i++) {
    size_t nl;
    char rerr[HNM_ERRLEN];
    int rc;
    if (cal_pack_csv_is(files[i]))
      rc = cal_pack_csv_read(files[i], &pack, rerr, sizeof rerr);
    else if ((rc = cal_refine_read_breakpoints(files[i], located + nlocated, 40 - nlocated, &nl, rerr, sizeof rerr)) > 0)
      nlocated += nl, refined = 1, rc = 0;
    else if (rc == 0)
      rc = cal_read_csv(files[i], &in, rerr, sizeof rerr);
    if (rc != 0)
      hnm_msg_die(HNM_EXIT_USAGE, "%s", rerr); /* the entry point: one line, exit 2 */
  }
  if (a.nforced == 0 && refined) {
    a.forced = located;
    a.nforced = nlocated;
    a.forced_only = 1;
  }
  double pcal_forced[64];
  if (a.pcal != NULL)
    nfiles = cal_pcal_inputs(&a, &in, pcal_forced, 64);
  struct cal_fitted m;
  cal_fit_model(&in, &a, &m);
  fit__complete(&in, &a, &m);
  m.nfiles = nfiles;
  /* The round trip against the data's noise floor, in-sample and held out;
   * with the file's breakpoints by default, the automatic ones too, and the
   * one whose held-out round trips are closer is the model. */
  char *extra = NULL;
  size_t extralen = 0;
  FILE *xf = open_memstream(&extra, &extralen);
  if (xf == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  struct cal_noise_eval ev;
  /* The held-out fits cost 5 fits: made where they choose the breakpoints
   * or give the bootstrap its residuals, or when asked. */
  int held_out = a.pcal != NULL || a.bootstrap > 0 || a.held_out;
  cal_noise_evaluate(&in, &a, &m, held_out ? cal_fit_model : NULL, &ev);
  /* With platform-calibration's data, candidate fits: the file's
   * breakpoints and automatic ones (unless forced), each with a running
   * median over none, 5 or 11 sizes; the smallest held-out round-trip
   * error over all sizes is the model (ties: the earlier candidate). The
   * clusters disagree on the best smoothing (plafrim and miriel: none or
   * 5 sizes, taurus: 11; docs/calibration.md), and the held-out error
   * is what tells. */
  int have_file = a.pcal != NULL && a.forced == pcal_forced && a.nforced > 0;
  int choose = a.pcal != NULL && !a.raw && held_out;
  int forced_choice = a.file_bp || a.auto_bp;
  if (choose) {
    static const int smooths[3] = {2, 0, 5};
    struct cal_fit_args cand[6];
    size_t nc = 0;
    for (int bp = 0; bp < 2; bp++) {
      if ((bp == 0 && (!have_file || a.auto_bp)) || (bp == 1 && a.file_bp))
        continue;
      for (int j = 0; j < 3; j++) {
        cand[nc] = a;
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
    size_t best = 0;
    int best_is_m = 1; /* the chosen fit is the one made above (its residuals and RMA fitted) */
    struct cal_fitted bm = m;
    struct cal_noise_eval be = ev;
    fprintf(xf, "Candidate fits (round-trip error over all sizes):\n");
    for (size_t c = 0; c < nc; c++) {
      struct cal_fitted mc;
      struct cal_noise_eval ec;
      int is_m = c == 0 && cand[0].smooth == a.smooth && cand[0].auto_bp == a.auto_bp && cand[0].forced == a.forced;
      if (is_m) {
        mc = m; /* the fit made above */
        ec = ev;
      } else {
        cal_fit_model(&in, &cand[c], &mc);
        mc.nfiles = nfiles;
        cal_noise_evaluate(&in, &cand[c], &mc, cal_fit_model, &ec);
      }
      char ho[32] = "-";
      if (ec.all_out >= 0)
        snprintf(ho, sizeof ho, "%.2f%%", 100 * ec.all_out);
      char sm[48] = "no running median:";
      if (cand[c].smooth > 0)
        snprintf(sm, sizeof sm, "running median of %d sizes:", 2 * cand[c].smooth + 1);
      fprintf(xf, "  %-23s %-28s held-out %7s, in-sample %6.2f%%, %zu segments\n",
              cand[c].auto_bp ? "automatic breakpoints," : "the file's breakpoints,", sm, ho, 100 * ec.all_in,
              mc.f.nseg);
      int better = c > 0 && ec.all_out >= 0 && (be.all_out < 0 || ec.all_out < be.all_out);
      if (c == 0 || better) {
        if (c > 0) {
          hnm_fit_result_free(&bm.f);
          cal_noise_eval_free(&be);
        }
        bm = mc;
        be = ec;
        best = c;
        best_is_m = is_m;
      } else {
        hnm_fit_result_free(&mc.f);
        cal_noise_eval_free(&ec);
      }
    }
    m = bm;
    ev = be;
    a = cand[best];
    /* A candidate fit is the model alone: the chosen one gets its RMA fit
     * and its residuals (for the stochastic mode) as the first fit did. */
    if (!best_is_m)
      fit__complete(&in, &a, &m);
    fprintf(xf, "Round trip, the chosen fit (%zu segments): median |model - median| / median\n", m.f.nseg);
    cal_noise_print(xf, "  ", &ev);
    if (ev.all_out < 0)
      fprintf(xf, "Breakpoints: %s (no held-out comparison: a fold of sizes left a breakpoint too few sizes)\n",
              a.auto_bp ? "automatic ones" : "the file's");
    else
      fprintf(xf, "Breakpoints: %s chosen: held-out round-trip error %.2f%% over all sizes, the smallest of %zu "
                  "candidate fits (running median of %d size(s); --file-breakpoints or --auto-breakpoints to "
                  "choose the breakpoints)\n",
              a.auto_bp ? "automatic ones" : "the file's", 100 * ev.all_out, nc, 2 * a.smooth + 1);
  } else {
    fprintf(xf, "Round trip (%zu segments): median |model - median| / median\n", m.f.nseg);
    cal_noise_print(xf, "  ", &ev);
  }
  fprintf(xf, "(per size decade, the median over its sizes; noise floor: the error of the median of the %d nearest "
              "sizes' medians, the best a function of size alone does; held-out: %s)\n",
          CAL_NOISE_WIDTH, !held_out ? "not computed, --held-out does" : ev.heldout ? "5 fits, each without every 5th size"
                                                                          : "not computed, a fold of sizes left a breakpoint too few sizes");
  if (fclose(xf) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  check_fitted(&m);
  if (pack.n > 0) {
    cal_pack_fit(&pack, &m.pack);
    m.has_pack = 1;
  }
  /* Bootstrap: each member fitted to a replicate of the measurements, then
   * given the size-to-size scatter of held-out sizes (cal_noise_perturb). */
  hnm_model **members = NULL;
  if (a.bootstrap > 0) {
    members = calloc((size_t)a.bootstrap, sizeof *members);
    if (members == NULL)
      hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
    uint64_t state = (uint64_t)a.seed * 0x9E3779B97F4A7C15ULL + 1;
    for (long i = 0; i < a.bootstrap; i++) {
      struct cal_inputs t;
      struct cal_fitted mi;
      cal_noise_resample(&in, &t, &state);
      cal_fit_model(&t, &a, &mi);
      cal_noise_perturb(&mi, &ev, (size_t)i, (size_t)a.bootstrap, (uint64_t)a.seed);
      mi.nfiles = nfiles;
      /* The pack costs are fitted once, outside the bootstrap: every member
       * carries the central model's. */
      mi.pack = m.pack;
      mi.has_pack = m.has_pack;
      mi.member = (int)i + 1;
      mi.members = (int)a.bootstrap;
      check_fitted(&mi);
      char name[600];
      snprintf(name, sizeof name, "%s-member-%03ld", a.name, i + 1);
      members[i] = cal_build_hybrid(&mi, name);
      hnm_fit_result_free(&mi.f);
      cal_noise_inputs_free(&t);
    }
  }
  /* The model first, flushed (a full disk, /dev/full) before the report
   * is written; renamed into place after it. */
  cal_write_model_finish(out, a.out, cal_build_hybrid, &m, a.name);
  const char *rtmp = hnm_out_dir_path(rdir);
  char p[4300];
  snprintf(p, sizeof p, "%s/loggps.xml", rtmp);
  cal_write_model(p, cal_build_loggps, &m, a.name);
  snprintf(p, sizeof p, "%s/fluid.xml", rtmp);
  cal_write_model(p, cal_build_fluid, &m, a.name);
  cal_write_report(rtmp, a.report, &m, &in, a.out, a.plots, extra);
  double pack_worst = m.has_pack ? write_pack_report(rtmp, &pack, &m.pack) : 0;
  if (a.bootstrap > 0) {
    char serr[4600];
    hnm_model *central = cal_build_hybrid(&m, a.name);
    int rc = cal_set_write(setdir, central, members, (size_t)a.bootstrap, serr, sizeof serr);
    hnm_model_free(central);
    for (long i = 0; i < a.bootstrap; i++)
      hnm_model_free(members[i]);
    free(members);
    if (rc != 0) {
      hnm_out_abort(out);
      hnm_msg_die(HNM_EXIT_USAGE, "%s", serr);
    }
  }
  if (hnm_out_dir_commit(rdir, oerr, sizeof oerr) != 0) {
    hnm_out_abort(out);
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  }
  if (hnm_out_commit(out, oerr, sizeof oerr) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", oerr);
  /* Everything is in place: now what stderr has to say (an error above
   * stays one line), and the plots. */
  cal_report_plots(a.report, &m, &in, a.plots);
  if (a.pcal != NULL && (forced_choice || !choose))
    cal_pcal_compare(&a, &in, &m, cal_fit_model);
  if (m.has_pack)
    hnm_msg_info("pack costs fitted; held-out patterns within %.1f%% (interpreted), see %s/pack.txt", 
            100 * pack_worst,  a.report);
  if (a.pcal != NULL)
    hnm_msg_info("%s", cal_pcal_summary());
  cal_print_lines(m.f.notes);
  /* The table once everything is written: an error above stays one line. */
  size_t xl = strlen(extra); /* a table of whole lines: one message */
  if (xl > 0)
    hnm_msg_info("%.*s", (int)(extra[xl - 1] == '\n' ? xl - 1 : xl), extra);
  if (a.bootstrap > 0)
    hnm_msg_info("wrote %s (%zu segments), %s/ (the central model and %ld members) and %s/",  a.out, 
            m.f.nseg,  setdir,  a.bootstrap,  a.report);
  else
    hnm_msg_info("wrote %s (%zu segments) and %s/", a.out, m.f.nseg, a.report);
  cal_noise_eval_free(&ev);
  free(extra);
  cal_inputs_free(&in);
  cal_pack_data_free(&pack);
  hnm_fit_result_free(&m.f);
  return 0;
}
