/* hnm-route -- default routing vs multi-path (heuristic, LP) on a Blue
 * Gene/Q 5D torus partition (Bui et al. 2015, OPTIQ). docs/multipath.md.
 *
 *   hnm-route --shape 4x4x4x4x2 --pattern subset --bytes 8MiB [--csv] [--paths FILE]
 *   hnm-route --shape 2048 --pattern-file pairs.txt
 *
 * Reads or generates a pattern, routes each pair the default way
 * (hnm_torus_default_route: what SimGrid does on hnm-platform's bgq
 * platform), finds k shortest paths per pair (Yen, hop limit), selects and
 * splits with the heuristic (Algorithm 2) and the LP (Model 1, GLPK), and
 * prints time, throughput, most loaded link and mean hops of each.
 *
 * Exit status: 0; 2 on bad input (one line naming the option or FILE:LINE
 * and field, or a --paths file that cannot be created); 1 if the work fails:
 * GLPK (no optimum, time limit), memory, or a write (one line naming the
 * file).
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_input.h"
#include "hnm_msg.h"
#include "hnm_opt.h"
#include "hnm_out.h"
#include "hnm_paths.h"
#include "hnm_quantity.h"
#include "hnm_topo.h"
#include "hnm_units.h"
#include "hnm_version.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int progress_on;

static double now(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void progress(const char *fmt, ...)
{
  va_list ap;
  char line[512];

  if (!progress_on)
    return;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  hnm_msg_info("%s", line);
}

static const char route__summary[] =
  "Default BG/Q routing vs multi-path data movement (Bui et al. 2015, OPTIQ) on a 5D torus\n"
  "partition: the transfer time of a communication pattern when every pair takes its\n"
  "default route, and when its bytes are spread over k shortest paths by the paper's\n"
  "heuristic (Algorithm 2) or its linear program (Model 1, solved with GLPK).\n"
  "time = bytes on the most loaded link / link capacity. docs/multipath.md.";

static const char route__epilog[] =
  "--shape: 512, 1024, 2048, 4096, 8192 or AxBxCxDxE (E = 2); nodes are MPI ranks in ABCDE\n"
  "order, as in hnm-platform bgq's hostfile.\n"
  "--simgrid: on rings of 2 (E), use only the link SimGrid routes over in each direction,\n"
  "not BG/Q's two: paths that apps/multipath can follow in a simulation of hnm-platform's\n"
  "bgq platform.\n"
  "Generated patterns: --sources default subset: p/16, disjoint and overlap: p/4; --dests\n"
  "subset: p/2, disjoint and overlap: p/4; --overlap default M/2; --group default 16.\n"
  "--pattern-file: lines 'src dst bytes' (ranks; bytes may have a unit: 8MiB); '#' comments;\n"
  "a pair given twice is refused.\n"
  "--csv columns: method,time_s,throughput_Bps,max_link_load_B,mean_hops.\n"
  "\n"
  "Exit status: 0; 2 on bad input (one line naming the option, or FILE:LINE and field)\n"
  "or if --paths cannot be created; 1 if GLPK finds no optimum (reported as such) or a\n"
  "write fails.\n";

struct route_opts {
  const char *shape, *pattern, *pattern_file, *paths;
  double bytes, bw, usable, lp_time; /* bytes, bytes/s, fraction, s */
  long sources, dests, overlap, group, k, slack, maxload;
  int csv, ksp, simgrid, progress;
};

/* Everything one run holds: the options, the partition, the pattern, the
 * path sets of each method and their evaluations. */
struct route_run {
  struct route_opts o;
  struct hnm_topo topo;
  struct hnm_torus *g;
  struct hnm_pattern pt;
  struct hnm_pattern_params pp;
  struct hnm_pathset def, cand, heu, lp, ksp;
  struct hnm_paths_eval ev[4];
  double capacity, z; /* bytes/s; 1/s */
  int heu_maxload;
  hnm_out *paths;
};

static const char *const route__names[4] = {"default", "heuristic", "lp", "ksp"};

/* A --sources .. --group value against the partition's size. */
static int route__check_count(const char *opt, long v, long min, unsigned long n, char *err, size_t errlen)
{
  if (v != 0 && (v < min || (unsigned long)v > n))
    return hnm_fail(err, errlen, "%s: '%ld' is not in %ld .. %lu", opt, v, min, n);
  return 0;
}

/* ---- Paths file ---------------------------------------------------------- */

/* One line per path with bytes > 0:
 *   METHOD SRC DST BYTES HOPS DIRS RANK0 RANK1 .. RANKH
 * DIRS names each hop's link, BG/Q dimension and direction ("A+D-E+"): on a
 * ring of 2 (E) the + and - links join the same two nodes and only DIRS
 * tells them apart. RANK0 = SRC, RANKH = DST. BYTES: %.17g, exactly what
 * the evaluation used. */
static int write_method(FILE *f, const char *method, const struct hnm_torus *g, const struct hnm_pattern *pt,
                        const struct hnm_pathset *ps)
{
  for (size_t j = 0; j < pt->npairs; j++) {
    for (size_t p = ps->first[j]; p < ps->first[j + 1]; p++) {
      uint32_t h;
      if (ps->bytes[p] <= 0)
        continue;
      fprintf(f, "%s %u %u %.17g %zu ", method, pt->pairs[j].src, pt->pairs[j].dst, ps->bytes[p],
              ps->off[p + 1] - ps->off[p]);
      for (size_t a = ps->off[p]; a < ps->off[p + 1]; a++) {
        int dim = (int)(ps->arcs[a] % HNM_PATHS_DEGREE) / 2;
        fputc("ABCDE"[g->bgq_dim[dim]], f);
        fputc(ps->arcs[a] % 2 ? '-' : '+', f);
      }
      fprintf(f, " %u", pt->pairs[j].src);
      for (size_t a = ps->off[p]; a < ps->off[p + 1]; a++) {
        h = (uint32_t)hnm_torus_arc_head(g, ps->arcs[a]);
        fprintf(f, " %u", g->rank_of_host[h]);
      }
      fputc('\n', f);
    }
  }
  return ferror(f) ? -1 : 0;
}


/* ---- Steps ------------------------------------------------------------- */

/* The pattern: generated from --pattern, or read from --pattern-file. Bad
 * input: -1 with err filled. */
static int route__pattern(struct route_run *r, char *err, size_t errlen)
{
  const struct route_opts *o = &r->o;

  if (o->pattern != NULL) {
    r->pp.bytes = o->bytes != 0 ? o->bytes : 8.0 * 1024 * 1024;
    if (hnm_pattern_parse_kind(o->pattern, &r->pp.kind, err, errlen) != 0)
      return -1;
    if (!(r->pp.bytes > 0))
      return hnm_fail(err, errlen, "--bytes: must be positive");
    if (route__check_count("--sources", o->sources, 1, r->g->n, err, errlen) ||
        route__check_count("--dests", o->dests, 1, r->g->n, err, errlen) ||
        route__check_count("--overlap", o->overlap, 1, r->g->n, err, errlen) ||
        route__check_count("--group", o->group, 2, r->g->n, err, errlen))
      return -1;
    r->pp.sources = (unsigned long)o->sources;
    r->pp.dests = (unsigned long)o->dests;
    r->pp.overlap = (unsigned long)o->overlap;
    r->pp.group = (unsigned long)o->group;
    return hnm_pattern_generate(&r->pp, r->g->n, &r->pt, err, errlen);
  }
  /* A named pipe or device would block or stream forever: regular files only (or "-"). */
  char why[512];
  FILE *f = strcmp(o->pattern_file, "-") == 0 ? stdin : hnm_input_open(o->pattern_file, why, sizeof why);
  if (f == NULL)
    return hnm_fail(err, errlen, "--pattern-file: '%s': %s", o->pattern_file, why);
  int rc = hnm_pattern_read(f, o->pattern_file, r->g->n, &r->pt, err, errlen);
  if (f != stdin)
    fclose(f);
  return rc;
}

/* Validate everything before any work: the options, the partition, the
 * pattern, and --paths opened now, so that an unwritable place is bad input
 * reported before any work. -1 with err filled. */
static int route__validate(struct route_run *r, char *err, size_t errlen)
{
  const struct route_opts *o = &r->o;
  char why[HNM_ERRLEN];

  if (o->shape == NULL)
    return hnm_fail(err, errlen, "--shape: missing (for example --shape 4x4x4x4x2 or --shape 512)");
  if (hnm_topo_bgq_parse_shape(o->shape, &r->topo, why, sizeof why) != 0 ||
      hnm_topo_check(&r->topo, why, sizeof why) != 0)
    return hnm_fail(err, errlen, "%s%s", strncmp(why, "--", 2) == 0 ? "" : "--shape: ", why);
  if ((o->pattern == NULL) == (o->pattern_file == NULL))
    return hnm_fail(err, errlen, "--pattern: give exactly one of --pattern NAME and --pattern-file FILE");
  if (o->pattern_file != NULL && (o->bytes || o->sources || o->dests || o->overlap || o->group))
    return hnm_fail(err, errlen,
                    "--pattern-file: --bytes, --sources, --dests, --overlap and --group are for generated patterns");
  if (!(o->bw > 0))
    return hnm_fail(err, errlen, "--bw: must be positive");
  if (o->bw > HNM_QUANTITY_MAX_BANDWIDTH)
    return hnm_fail(err, errlen, "--bw: %gBps is above %gBps (not a link's bandwidth; docs/platforms.md)", o->bw,
                    HNM_QUANTITY_MAX_BANDWIDTH);
  if (!(o->usable > 0 && o->usable <= 1))
    return hnm_fail(err, errlen, "--usable: '%g' is not in (0, 1]", o->usable);
  r->capacity = o->bw * o->usable;
  r->g = hnm_torus_new(&r->topo, err, errlen);
  if (r->g == NULL)
    return -1;
  r->g->simgrid_links = o->simgrid;
  /* The one output rule (hnm_out.h): --paths is never the pattern it reads. */
  if (hnm_out_input(o->pattern_file, "--pattern-file", err, errlen) != 0 || route__pattern(r, err, errlen) != 0)
    return -1;
  if (o->paths != NULL && (r->paths = hnm_out_open(o->paths, "--paths", err, errlen)) == NULL)
    return -1;
  return 0;
}

/* Route the pattern every way and evaluate each method. Failed work: -1
 * with err filled. */
static int route__compute(struct route_run *r, char *err, size_t errlen)
{
  struct hnm_pathset *sets[4] = {&r->def, &r->heu, &r->lp, &r->ksp};
  double t0 = now();

  if (hnm_paths_default(r->g, &r->pt, &r->def, err, errlen) != 0)
    return -1;
  progress("default routes: %zu pairs, %.2f s", r->pt.npairs, now() - t0);
  t0 = now();
  if (hnm_paths_kshortest(r->g, &r->pt, (int)r->o.k, (int)r->o.slack, &r->cand, err, errlen) != 0)
    return -1;
  progress("k shortest paths: %zu paths, %.2f s", r->cand.npaths, now() - t0);
  t0 = now();
  r->heu_maxload = (int)r->o.maxload;
  if (hnm_paths_heuristic(r->g, &r->pt, &r->cand, &r->heu, &r->heu_maxload, err, errlen) != 0)
    return -1;
  progress("heuristic: maxload %d, %.2f s", r->heu_maxload, now() - t0);
  t0 = now();
  if (hnm_paths_lp(r->g, &r->pt, &r->cand, r->capacity, r->o.lp_time, &r->lp, &r->z, err, errlen) != 0)
    return -1;
  progress("LP: %.2f s", now() - t0);
  if (r->o.ksp) {
    /* Equal split over every candidate: the k-shortest-path baseline. */
    r->ksp = r->cand;
    r->ksp.bytes = malloc((r->cand.npaths ? r->cand.npaths : 1) * sizeof *r->ksp.bytes);
    if (r->ksp.bytes == NULL) {
      memset(&r->ksp, 0, sizeof r->ksp);
      return hnm_fail(err, errlen, "out of memory");
    }
    for (size_t j = 0; j < r->pt.npairs; j++)
      for (size_t p = r->cand.first[j]; p < r->cand.first[j + 1]; p++)
        r->ksp.bytes[p] = r->pt.pairs[j].bytes / (double)(r->cand.first[j + 1] - r->cand.first[j]);
  }
  for (int m = 0; m < (r->o.ksp ? 4 : 3); m++)
    if (hnm_paths_evaluate(r->g, sets[m], &r->pt, r->capacity, &r->ev[m], err, errlen) != 0)
      return -1;
  return 0;
}

/* The --paths file: its header, every method's splits, then the commit.
 * A failed write: -1 with err filled. */
static int route__write_paths(struct route_run *r, const char *shape_text, char *err, size_t errlen)
{
  const struct hnm_pathset *sets[4] = {&r->def, &r->heu, &r->lp, &r->ksp};
  FILE *pf = hnm_out_file(r->paths);
  hnm_out *paths = r->paths;

  fprintf(pf, "# hnm-route %s: shape %s (%lu nodes), %s, %zu pairs; link capacity %.17g B/s\n", HNM_VERSION,
          shape_text, r->g->n, r->o.pattern ? hnm_pattern_kind_name(r->pp.kind) : r->o.pattern_file, r->pt.npairs,
          r->capacity);
  fprintf(pf, "# links: %s\n", r->o.simgrid ? "simgrid (one per direction on rings of 2)" : "bgq (10 per node)");
  fprintf(pf, "# lp_z %.17g 1/s (GLPK's optimum of Model 1; lp time = 1/Z)\n", r->z);
  fprintf(pf, "# method src dst bytes hops dirs ranks (src .. dst)\n");
  for (int m = 0; m < (r->o.ksp ? 4 : 3); m++)
    if (write_method(pf, route__names[m], r->g, &r->pt, sets[m]) != 0)
      break;
  r->paths = NULL;
  return hnm_out_commit(paths, err, errlen);
}

/* The results on standard output: CSV or a table. */
static void route__report(const struct route_run *r, const char *shape_text)
{
  const struct hnm_paths_eval *ev = r->ev;

  if (r->o.csv) {
    printf("method,time_s,throughput_Bps,max_link_load_B,mean_hops\n");
    for (int m = 0; m < (r->o.ksp ? 4 : 3); m++)
      printf("%s,%.17g,%.17g,%.17g,%.17g\n", route__names[m], ev[m].time_s, ev[m].throughput_Bps,
             ev[m].max_link_load_B, ev[m].mean_hops);
    return;
  }
  char order[16];
  for (int kd = 0; kd < 5; kd++)
    order[2 * kd] = "ABCDE"[r->g->bgq_dim[kd]], order[2 * kd + 1] = kd < 4 ? ',' : '\0';
  printf("shape %s: %lu nodes, routing order %s; link capacity %g B/s per direction\n", shape_text, r->g->n, order,
         r->capacity);
  printf("pattern %s: %zu pairs, %.6g bytes\n", r->o.pattern ? hnm_pattern_kind_name(r->pp.kind) : r->o.pattern_file,
         r->pt.npairs, ev[0].total_bytes);
  printf("candidates: %zu paths (k = %ld, hop limit shortest + %ld); heuristic maxload %d; LP Z = %.6g 1/s\n",
         r->cand.npaths, r->o.k, r->o.slack, r->heu_maxload, r->z);
  printf("%-10s %14s %18s %18s %10s %8s %8s\n", "method", "time (s)", "throughput (GB/s)", "max link load (MB)",
         "mean hops", "paths", "vs default");
  for (int m = 0; m < (r->o.ksp ? 4 : 3); m++)
    printf("%-10s %14.6g %18.6g %18.6g %10.4g %8zu %7.3fx\n", route__names[m], ev[m].time_s,
           ev[m].throughput_Bps / 1e9, ev[m].max_link_load_B / 1e6, ev[m].mean_hops, ev[m].paths,
           ev[m].throughput_Bps / ev[0].throughput_Bps);
}

static void route__free(struct route_run *r)
{
  hnm_out_abort(r->paths);
  if (r->o.ksp)
    free(r->ksp.bytes);
  hnm_pathset_free(&r->def);
  hnm_pathset_free(&r->cand);
  hnm_pathset_free(&r->heu);
  hnm_pathset_free(&r->lp);
  hnm_pattern_free(&r->pt);
  hnm_torus_free(r->g);
}

/* ---- Main ---------------------------------------------------------------- */

int main(int argc, char **argv)
{
  static struct route_run run;
  struct route_opts *o = &run.o;
  const double any = HUGE_VAL;
  const struct hnm_opt opts[] = {
    {.name = "shape", .kind = HNM_OPT_STRING, .arg = "SHAPE", .help = "BG/Q partition: 512 .. 8192 nodes or AxBxCxDxE (see below)", .value = &o->shape},
    {.name = "bw", .kind = HNM_OPT_BANDWIDTH, .arg = "BW", .def = "2GBps", .unit = "bytes/s", .help = "link bandwidth per direction, at most 1e15Bps", .value = &o->bw},
    {.name = "usable", .kind = HNM_OPT_NUMBER, .arg = "F", .def = "0.9", .help = "usable fraction of it, 0 < F <= 1", .value = &o->usable},
    {.name = "simgrid", .kind = HNM_OPT_FLAG, .help = "on rings of 2, only the links SimGrid routes over (see below)", .value = &o->simgrid},
    {.name = "pattern", .kind = HNM_OPT_STRING, .arg = "NAME", .help = "aggregation, disjoint, overlap, subset (= subset1), subset2", .value = &o->pattern},
    {.name = "pattern-file", .kind = HNM_OPT_STRING, .arg = "FILE", .help = "the pairs from FILE instead (see below)", .value = &o->pattern_file},
    {.name = "bytes", .kind = HNM_OPT_SIZE, .arg = "SIZE", .help = "bytes per pair of a generated pattern (default 8MiB)", .value = &o->bytes},
    {.name = "sources", .kind = HNM_OPT_LONG, .arg = "M", .help = "sources: the first M ranks", .value = &o->sources, .min = 1, .max = 1048576},
    {.name = "dests", .kind = HNM_OPT_LONG, .arg = "N", .help = "destinations", .value = &o->dests, .min = 1, .max = 1048576},
    {.name = "overlap", .kind = HNM_OPT_LONG, .arg = "O", .help = "overlap: destinations start at rank M - O", .value = &o->overlap, .min = 1, .max = 1048576},
    {.name = "group", .kind = HNM_OPT_LONG, .arg = "G", .help = "aggregation: subgroups of G ranks", .value = &o->group, .min = 1, .max = 1048576},
    {.name = "k", .kind = HNM_OPT_LONG, .arg = "K", .def = "16", .help = "candidate paths per pair, Yen's algorithm", .value = &o->k, .min = 1, .max = 1000},
    {.name = "slack", .kind = HNM_OPT_LONG, .arg = "H", .def = "2", .unit = "hops", .help = "hop limit: shortest distance + H", .value = &o->slack, .max = 64},
    {.name = "maxload", .kind = HNM_OPT_LONG, .arg = "L", .def = "1", .help = "initial maxload of the heuristic", .value = &o->maxload, .min = 1, .max = 1000000},
    {.name = "lp-time-limit", .kind = HNM_OPT_NUMBER, .arg = "S", .def = "600", .unit = "s", .help = "GLPK's time limit, 0 = none", .value = &o->lp_time, .max = any},
    {.name = "csv", .kind = HNM_OPT_FLAG, .help = "CSV on stdout (columns below)", .value = &o->csv},
    {.name = "ksp", .kind = HNM_OPT_FLAG, .help = "also the row 'ksp': bytes split equally over all k candidates", .value = &o->ksp},
    {.name = "paths", .kind = HNM_OPT_STRING, .arg = "FILE", .help = "per-pair path splits of every method (docs/multipath.md)", .value = &o->paths},
    {.name = "progress", .kind = HNM_OPT_FLAG, .help = "timings of each stage on stderr (default: when a terminal)", .value = &o->progress},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {"hnm-route", "--shape SHAPE (--pattern NAME | --pattern-file FILE) [OPTIONS]",
                                  route__summary, route__epilog, NULL, 0, NULL};

  hnm_msg_init("hnm-route");
  char opt_err[HNM_ERRLEN];
  int first = hnm_opt_parse(&cmd, opts, argc, argv, opt_err, sizeof opt_err);
  if (first < 0)
    return first == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", opt_err);
  if (first < argc)
    return hnm_msg_error("'%s': unexpected argument (see hnm-route --help)", argv[first]);
  /* Validate (bad input: 2), compute and write (failed work: 1), report. */
  char err[HNM_ERRLEN], shape_text[64];
  int status;
  progress_on = o->progress || isatty(STDERR_FILENO);
  if (route__validate(&run, err, sizeof err) != 0)
    status = hnm_msg_error("%s", err);
  else if (route__compute(&run, err, sizeof err) != 0)
    status = hnm_msg_failure("%s", err);
  else {
    hnm_topo_describe(&run.topo, shape_text, sizeof shape_text);
    if (run.paths != NULL && route__write_paths(&run, shape_text, err, sizeof err) != 0)
      status = hnm_msg_failure("%s", err);
    else {
      route__report(&run, shape_text);
      errno = 0;
      status = HNM_EXIT_OK;
      if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno;
        status = hnm_msg_failure("standard output: write error%s%s", e ? ": " : "", e ? strerror(e) : "");
      }
    }
  }
  route__free(&run);
  return status;
}
