/* hnm-route -- default routing vs multi-path (heuristic, LP) on a Blue
 * Gene/Q 5D torus partition (Bui et al. 2015, OPTIQ). docs/route.md.
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
 * and field); 1 if GLPK fails (no optimum, time limit) or writing fails.
 */
#define _POSIX_C_SOURCE 200809L
#include "hnm_input.h"
#include "hnm_paths.h"
#include "hnm_topo.h"
#include "hnm_units.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef HNM_VERSION
#define HNM_VERSION "unknown"
#endif

#define PROG "hnm-route"

static int progress_on;

static void bad(const char *fmt, ...)
{
  va_list ap;

  fprintf(stderr, PROG ": ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

static double now(void)
{
  struct timespec ts;

  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void progress(const char *fmt, ...)
{
  va_list ap;

  if (!progress_on)
    return;
  fprintf(stderr, PROG ": ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

static void usage(FILE *f)
{
  fprintf(f,
          "usage: " PROG " --shape SHAPE (--pattern NAME | --pattern-file FILE) [options]\n"
          "\n"
          "Default BG/Q routing vs multi-path data movement (Bui et al. 2015, OPTIQ) on a 5D torus\n"
          "partition: the transfer time of a communication pattern when every pair takes its\n"
          "default route, and when its bytes are spread over k shortest paths by the paper's\n"
          "heuristic (Algorithm 2) or its linear program (Model 1, solved with GLPK).\n"
          "time = bytes on the most loaded link / link capacity. docs/route.md.\n"
          "\n"
          "Partition and links:\n"
          "  --shape SHAPE        512, 1024, 2048, 4096, 8192 or AxBxCxDxE (E = 2); nodes are\n"
          "                       MPI ranks in ABCDE order, as in hnm-platform bgq's hostfile\n"
          "  --bw BW              link bandwidth per direction (default 2GBps)\n"
          "  --usable F           usable fraction of it, 0 < F <= 1 (default 0.9)\n"
          "  --simgrid            on rings of 2 (E), use only the link SimGrid routes over in\n"
          "                       each direction, not BG/Q's two: paths that apps/multipath can\n"
          "                       follow in a simulation of hnm-platform's bgq platform\n"
          "Pattern (one of):\n"
          "  --pattern NAME       aggregation, disjoint, overlap, subset (= subset1), subset2\n"
          "  --pattern-file FILE  lines 'src dst bytes' (ranks; bytes may have a unit: 8MiB);\n"
          "                       '#' comments; a pair given twice is refused\n"
          "  --bytes SIZE         bytes per pair of a generated pattern (default 8MiB)\n"
          "  --sources M          sources: the first M ranks (subset: p/16; disjoint, overlap: p/4)\n"
          "  --dests N            destinations (subset: p/2; disjoint, overlap: p/4)\n"
          "  --overlap O          overlap: destinations start at rank M - O (default M/2)\n"
          "  --group G            aggregation: subgroups of G ranks (default 16)\n"
          "Paths:\n"
          "  --k K                candidate paths per pair, Yen's algorithm (default 16)\n"
          "  --slack H            hop limit: shortest distance + H (default 2)\n"
          "  --maxload L          initial maxload of the heuristic (default 1)\n"
          "  --lp-time-limit S    GLPK's time limit in seconds, 0 = none (default 600)\n"
          "Output:\n"
          "  --csv                CSV: method,time_s,throughput_Bps,max_link_load_B,mean_hops\n"
          "  --ksp                also the row 'ksp': bytes split equally over all k candidates\n"
          "  --paths FILE         per-pair path splits of every method (docs/route.md)\n"
          "  --progress           timings of each stage on stderr (default: when a terminal)\n"
          "  -h, --help           this text\n"
          "  --version            version\n"
          "\n"
          "Exit status: 0; 2 on bad input (one line naming the option, or FILE:LINE and field);\n"
          "1 if GLPK finds no optimum (reported as such) or a file cannot be written.\n");
}

struct route_opts {
  const char *shape, *pattern, *pattern_file, *paths, *bytes;
  const char *sources, *dests, *overlap, *group;
  const char *bw, *usable, *k, *slack, *maxload, *lp_time;
  int csv, ksp, simgrid;
};

static int parse_ulong(const char *opt, const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
  char *end;
  unsigned long v;

  errno = 0;
  if (s[0] < '0' || s[0] > '9') {
    bad("%s: '%s' is not a non-negative integer", opt, s);
    return -1;
  }
  v = strtoul(s, &end, 10);
  if (errno != 0 || *end != '\0') {
    bad("%s: '%s' is not a non-negative integer", opt, s);
    return -1;
  }
  if (v < min || v > max) {
    bad("%s: %lu is not in %lu .. %lu", opt, v, min, max);
    return -1;
  }
  *out = v;
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

/* ---- Main ---------------------------------------------------------------- */

int main(int argc, char **argv)
{
  struct route_opts o = {0};
  struct hnm_topo topo;
  struct hnm_torus *g = NULL;
  struct hnm_pattern pt = {0};
  struct hnm_pattern_params pp = {0};
  struct hnm_pathset def = {0}, cand = {0}, heu = {0}, lp = {0}, ksp = {0};
  struct hnm_paths_eval ev[4];
  char err[512], shape_text[64];
  double bw = 2e9, usable = 0.9, capacity, lp_time = 600, z = 0, t0;
  unsigned long k = 16, slack = 2, maxload = 1;
  int heu_maxload, status = 2, progress_opt = 0;
  const char *names[4] = {"default", "heuristic", "lp", "ksp"};
  struct hnm_pathset *sets[4] = {&def, &heu, &lp, &ksp};
  char *tmp = NULL;
  FILE *pf = NULL;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **slot = NULL;

    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(a, "--version") == 0) {
      printf(PROG " " HNM_VERSION "\n");
      return 0;
    }
    if (strcmp(a, "--csv") == 0) {
      o.csv = 1;
      continue;
    }
    if (strcmp(a, "--simgrid") == 0) {
      o.simgrid = 1;
      continue;
    }
    if (strcmp(a, "--ksp") == 0) {
      o.ksp = 1;
      continue;
    }
    if (strcmp(a, "--progress") == 0) {
      progress_opt = 1;
      continue;
    }
    if (strcmp(a, "--shape") == 0) slot = &o.shape;
    else if (strcmp(a, "--pattern") == 0) slot = &o.pattern;
    else if (strcmp(a, "--pattern-file") == 0) slot = &o.pattern_file;
    else if (strcmp(a, "--paths") == 0) slot = &o.paths;
    else if (strcmp(a, "--bytes") == 0) slot = &o.bytes;
    else if (strcmp(a, "--sources") == 0) slot = &o.sources;
    else if (strcmp(a, "--dests") == 0) slot = &o.dests;
    else if (strcmp(a, "--overlap") == 0) slot = &o.overlap;
    else if (strcmp(a, "--group") == 0) slot = &o.group;
    else if (strcmp(a, "--bw") == 0) slot = &o.bw;
    else if (strcmp(a, "--usable") == 0) slot = &o.usable;
    else if (strcmp(a, "--k") == 0) slot = &o.k;
    else if (strcmp(a, "--slack") == 0) slot = &o.slack;
    else if (strcmp(a, "--maxload") == 0) slot = &o.maxload;
    else if (strcmp(a, "--lp-time-limit") == 0) slot = &o.lp_time;
    if (slot == NULL) {
      bad("%s: unknown option (see --help)", a);
      return 2;
    }
    if (i + 1 >= argc) {
      bad("%s: missing value", a);
      return 2;
    }
    *slot = argv[++i];
  }
  progress_on = progress_opt || isatty(STDERR_FILENO);

  /* ---- Validate everything first. ---- */
  memset(&topo, 0, sizeof topo);
  if (o.shape == NULL) {
    bad("--shape: missing (for example --shape 4x4x4x4x2 or --shape 512)");
    return 2;
  }
  if (hnm_topo_bgq_parse_shape(o.shape, &topo, err, sizeof err) != 0 || hnm_topo_check(&topo, err, sizeof err) != 0) {
    bad("--shape: %s", strncmp(err, "--shape: ", 9) == 0 ? err + 9 : err);
    return 2;
  }
  if ((o.pattern == NULL) == (o.pattern_file == NULL)) {
    bad("--pattern: give exactly one of --pattern NAME and --pattern-file FILE");
    return 2;
  }
  if (o.pattern_file != NULL && (o.bytes || o.sources || o.dests || o.overlap || o.group)) {
    bad("--pattern-file: --bytes, --sources, --dests, --overlap and --group are for generated patterns");
    return 2;
  }
  if (o.bw != NULL && (hnm_parse_bandwidth(o.bw, &bw, err, sizeof err) != 0 || !(bw > 0))) {
    bad("--bw: %s", o.bw != NULL && bw <= 0 ? "must be positive" : err);
    return 2;
  }
  if (o.usable != NULL && (hnm_parse_number(o.usable, &usable, err, sizeof err) != 0 || !(usable > 0 && usable <= 1))) {
    bad("--usable: '%s' is not in (0, 1]", o.usable);
    return 2;
  }
  if (o.k != NULL && parse_ulong("--k", o.k, 1, 1000, &k) != 0)
    return 2;
  if (o.slack != NULL && parse_ulong("--slack", o.slack, 0, 64, &slack) != 0)
    return 2;
  if (o.maxload != NULL && parse_ulong("--maxload", o.maxload, 1, 1000000, &maxload) != 0)
    return 2;
  if (o.lp_time != NULL && (hnm_parse_number(o.lp_time, &lp_time, err, sizeof err) != 0 || !(lp_time >= 0))) {
    bad("--lp-time-limit: '%s' is not a number of seconds >= 0", o.lp_time);
    return 2;
  }
  capacity = bw * usable;
  g = hnm_torus_new(&topo, err, sizeof err);
  if (g == NULL) {
    bad("%s", err);
    return 2;
  }
  g->simgrid_links = o.simgrid;
  if (o.pattern != NULL) {
    pp.bytes = 8.0 * 1024 * 1024;
    if (hnm_pattern_parse_kind(o.pattern, &pp.kind, err, sizeof err) != 0) {
      bad("%s", err);
      goto out;
    }
    if (o.bytes != NULL && hnm_parse_size(o.bytes, &pp.bytes, err, sizeof err) != 0) {
      bad("--bytes: %s", err);
      goto out;
    }
    if ((o.sources && parse_ulong("--sources", o.sources, 1, g->n, &pp.sources) != 0) ||
        (o.dests && parse_ulong("--dests", o.dests, 1, g->n, &pp.dests) != 0) ||
        (o.overlap && parse_ulong("--overlap", o.overlap, 1, g->n, &pp.overlap) != 0) ||
        (o.group && parse_ulong("--group", o.group, 2, g->n, &pp.group) != 0))
      goto out;
    if (hnm_pattern_generate(&pp, g->n, &pt, err, sizeof err) != 0) {
      bad("%s", err);
      goto out;
    }
  } else {
    /* A named pipe or device would block or stream forever: regular files only (or "-"). */
    char why[512];
    FILE *f = strcmp(o.pattern_file, "-") == 0 ? stdin : hnm_input_open(o.pattern_file, why, sizeof why);
    int rc;
    if (f == NULL) {
      bad("--pattern-file: '%s': %s", o.pattern_file, why);
      goto out;
    }
    rc = hnm_pattern_read(f, o.pattern_file, g->n, &pt, err, sizeof err);
    if (f != stdin)
      fclose(f);
    if (rc != 0) {
      bad("%s", err);
      goto out;
    }
  }
  if (o.paths != NULL) {
    /* Open the temporary now, so that an unwritable place is bad input
     * reported before any work. */
    int fd;
    tmp = malloc(strlen(o.paths) + 8);
    if (tmp == NULL)
      goto fail_oom;
    sprintf(tmp, "%s.XXXXXX", o.paths);
    fd = mkstemp(tmp);
    if (fd < 0) {
      bad("--paths: '%s': %s", o.paths, strerror(errno));
      free(tmp);
      tmp = NULL;
      goto out;
    }
    {
      mode_t um = umask(0); /* mkstemp() creates 0600; give the mode fopen() would */
      umask(um);
      fchmod(fd, 0666 & ~um);
    }
    pf = fdopen(fd, "w");
    if (pf == NULL) {
      bad("--paths: '%s': %s", tmp, strerror(errno));
      close(fd);
      goto out_unlink;
    }
  }
  status = 1;

  /* ---- Compute. ---- */
  t0 = now();
  if (hnm_paths_default(g, &pt, &def, err, sizeof err) != 0)
    goto fail;
  progress("default routes: %zu pairs, %.2f s", pt.npairs, now() - t0);
  t0 = now();
  if (hnm_paths_kshortest(g, &pt, (int)k, (int)slack, &cand, err, sizeof err) != 0)
    goto fail;
  progress("k shortest paths: %zu paths, %.2f s", cand.npaths, now() - t0);
  t0 = now();
  heu_maxload = (int)maxload;
  if (hnm_paths_heuristic(g, &pt, &cand, &heu, &heu_maxload, err, sizeof err) != 0)
    goto fail;
  progress("heuristic: maxload %d, %.2f s", heu_maxload, now() - t0);
  t0 = now();
  if (hnm_paths_lp(g, &pt, &cand, capacity, lp_time, &lp, &z, err, sizeof err) != 0)
    goto fail;
  progress("LP: %.2f s", now() - t0);
  if (o.ksp) {
    /* Equal split over every candidate: the k-shortest-path baseline. */
    ksp = cand;
    ksp.bytes = malloc((cand.npaths ? cand.npaths : 1) * sizeof *ksp.bytes);
    if (ksp.bytes == NULL) {
      memset(&ksp, 0, sizeof ksp);
      goto fail_oom;
    }
    for (size_t j = 0; j < pt.npairs; j++)
      for (size_t p = cand.first[j]; p < cand.first[j + 1]; p++)
        ksp.bytes[p] = pt.pairs[j].bytes / (double)(cand.first[j + 1] - cand.first[j]);
  }
  for (int m = 0; m < (o.ksp ? 4 : 3); m++)
    if (hnm_paths_evaluate(g, sets[m], &pt, capacity, &ev[m], err, sizeof err) != 0)
      goto fail;

  /* ---- Write. ---- */
  hnm_topo_describe(&topo, shape_text, sizeof shape_text);
  if (pf != NULL) {
    fprintf(pf, "# hnm-route %s: shape %s (%lu nodes), %s, %zu pairs; link capacity %.17g B/s\n", HNM_VERSION,
            shape_text, g->n, o.pattern ? hnm_pattern_kind_name(pp.kind) : o.pattern_file, pt.npairs, capacity);
    fprintf(pf, "# links: %s\n", o.simgrid ? "simgrid (one per direction on rings of 2)" : "bgq (10 per node)");
    fprintf(pf, "# lp_z %.17g 1/s (GLPK's optimum of Model 1; lp time = 1/Z)\n", z);
    fprintf(pf, "# method src dst bytes hops dirs ranks (src .. dst)\n");
    for (int m = 0; m < (o.ksp ? 4 : 3); m++)
      if (write_method(pf, names[m], g, &pt, sets[m]) != 0)
        break;
    if (ferror(pf) | (fclose(pf) != 0)) {
      pf = NULL;
      bad("--paths: '%s': write error", o.paths);
      goto out_unlink;
    }
    pf = NULL;
    if (rename(tmp, o.paths) != 0) {
      bad("--paths: '%s': %s", o.paths, strerror(errno));
      goto out_unlink;
    }
    free(tmp);
    tmp = NULL;
  }
  if (o.csv) {
    printf("method,time_s,throughput_Bps,max_link_load_B,mean_hops\n");
    for (int m = 0; m < (o.ksp ? 4 : 3); m++)
      printf("%s,%.17g,%.17g,%.17g,%.17g\n", names[m], ev[m].time_s, ev[m].throughput_Bps, ev[m].max_link_load_B,
             ev[m].mean_hops);
  } else {
    char order[16];
    for (int kd = 0; kd < 5; kd++)
      order[2 * kd] = "ABCDE"[g->bgq_dim[kd]], order[2 * kd + 1] = kd < 4 ? ',' : '\0';
    printf("shape %s: %lu nodes, routing order %s; link capacity %g B/s per direction\n", shape_text, g->n, order,
           capacity);
    printf("pattern %s: %zu pairs, %.6g bytes\n", o.pattern ? hnm_pattern_kind_name(pp.kind) : o.pattern_file,
           pt.npairs, ev[0].total_bytes);
    printf("candidates: %zu paths (k = %lu, hop limit shortest + %lu); heuristic maxload %d; LP Z = %.6g 1/s\n",
           cand.npaths, k, slack, heu_maxload, z);
    printf("%-10s %14s %18s %18s %10s %8s %8s\n", "method", "time (s)", "throughput (GB/s)", "max link load (MB)",
           "mean hops", "paths", "vs default");
    for (int m = 0; m < (o.ksp ? 4 : 3); m++)
      printf("%-10s %14.6g %18.6g %18.6g %10.4g %8zu %7.3fx\n", names[m], ev[m].time_s, ev[m].throughput_Bps / 1e9,
             ev[m].max_link_load_B / 1e6, ev[m].mean_hops, ev[m].paths, ev[m].throughput_Bps / ev[0].throughput_Bps);
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    bad("stdout: write error");
    status = 1;
    goto out;
  }
  status = 0;
  goto out;

fail_oom:
  snprintf(err, sizeof err, "out of memory");
fail:
  bad("%s", err);
out_unlink:
  if (pf != NULL)
    fclose(pf);
  pf = NULL;
  if (tmp != NULL)
    unlink(tmp);
out:
  if (pf != NULL) {
    fclose(pf);
    unlink(tmp);
  }
  free(tmp);
  if (o.ksp)
    free(ksp.bytes);
  hnm_pathset_free(&def);
  hnm_pathset_free(&cand);
  hnm_pathset_free(&heu);
  hnm_pathset_free(&lp);
  hnm_pattern_free(&pt);
  hnm_torus_free(g);
  return status;
}
