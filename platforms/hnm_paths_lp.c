/* hnm_paths_lp.c -- Model 1 of Bui et al. 2015 solved with GLPK: the only module
 * that calls GLPK.
 *
 *   maximise Z
 *   subject to  sum_p Flow[j,p] = Demand[j] Z          for every pair j
 *               sum_{(j,p) through a} Flow[j,p] <= Cap  for every link a
 *               Flow >= 0, Z >= 0
 *
 * Scaled so that every coefficient is of order 1: flows in units of the
 * link capacity c, demands in units of the largest demand Dmax. The scaled
 * optimum Z' gives Z = Z' c / Dmax (1/s) and the transfer time 1/Z. Only
 * links crossed by some candidate path get a row.
 */
#include "hnm_paths.h"
#include "hnm_units.h"

#include <glpk.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *lp__simplex_error(int rc)
{
  switch (rc) {
    case GLP_EBADB: return "invalid initial basis";
    case GLP_ESING: return "singular basis matrix";
    case GLP_ECOND: return "ill-conditioned basis matrix";
    case GLP_EBOUND: return "incorrect bounds";
    case GLP_EFAIL: return "solver failure";
    case GLP_EOBJLL: return "objective lower limit reached";
    case GLP_EOBJUL: return "objective upper limit reached";
    case GLP_EITLIM: return "iteration limit reached";
    case GLP_ETMLIM: return "time limit reached";
    case GLP_ENOPFS: return "no primal feasible solution (infeasible)";
    case GLP_ENODFS: return "no dual feasible solution (unbounded)";
    default: return "unknown error";
  }
}

static const char *lp__status(int st)
{
  switch (st) {
    case GLP_OPT: return "optimal";
    case GLP_FEAS: return "feasible but not proven optimal";
    case GLP_INFEAS: return "infeasible";
    case GLP_NOFEAS: return "no feasible solution";
    case GLP_UNBND: return "unbounded";
    case GLP_UNDEF: return "undefined";
    default: return "unknown";
  }
}

/* Model 1 into lp: rows 1..npairs are the demands (fixed at 0), then one
 * row per link used (at most 1); column 1 is Z, columns 2.. one flow per
 * candidate path. ia, ja, ar: room for npaths + npairs + narcs entries (1-based). */
static void lp__load(glp_prob *lp, const struct hnm_pattern *pt, const struct hnm_pathset *cand,
                     const int *row_of_arc, int nrows, double dmax, int *ia, int *ja, double *ar)
{
  size_t nnz = 0;

  glp_set_obj_dir(lp, GLP_MAX);
  glp_add_rows(lp, nrows);
  for (int r = 1; r <= (int)pt->npairs; r++)
    glp_set_row_bnds(lp, r, GLP_FX, 0.0, 0.0);
  for (int r = (int)pt->npairs + 1; r <= nrows; r++)
    glp_set_row_bnds(lp, r, GLP_UP, 0.0, 1.0);
  glp_add_cols(lp, (int)cand->npaths + 1);
  glp_set_col_bnds(lp, 1, GLP_LO, 0.0, 0.0);
  glp_set_obj_coef(lp, 1, 1.0);
  for (size_t j = 0; j < pt->npairs; j++) {
    nnz++;
    ia[nnz] = (int)j + 1;
    ja[nnz] = 1;
    ar[nnz] = -pt->pairs[j].bytes / dmax;
    for (size_t p = cand->first[j]; p < cand->first[j + 1]; p++) {
      int col = (int)p + 2;
      glp_set_col_bnds(lp, col, GLP_LO, 0.0, 0.0);
      nnz++;
      ia[nnz] = (int)j + 1;
      ja[nnz] = col;
      ar[nnz] = 1.0;
      for (size_t a = cand->off[p]; a < cand->off[p + 1]; a++) {
        nnz++;
        ia[nnz] = row_of_arc[cand->arcs[a]];
        ja[nnz] = col;
        ar[nnz] = 1.0;
      }
    }
  }
  glp_load_matrix(lp, (int)nnz, ia, ja, ar);
}

/* Solve with the simplex; both the return code and the solution status are
 * checked. The optimum Z (scaled) in *zs; -1 with err filled. */
static int lp__solve(glp_prob *lp, double time_limit, double *zs, char *err, size_t errlen)
{
  glp_smcp parm;
  int rc, st;

  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  if (time_limit > 0)
    parm.tm_lim = time_limit * 1000 > 2e9 ? 2000000000 : (int)ceil(time_limit * 1000);
  rc = glp_simplex(lp, &parm);
  if (rc == GLP_ETMLIM)
    return hnm_fail(err, errlen, "LP: GLPK: time limit of %g s reached (--lp-time-limit)", time_limit);
  if (rc != 0)
    return hnm_fail(err, errlen, "LP: GLPK: %s (glp_simplex returned %d)", lp__simplex_error(rc), rc);
  st = glp_get_status(lp);
  if (st != GLP_OPT)
    return hnm_fail(err, errlen, "LP: GLPK: solution is %s, not optimal", lp__status(st));
  *zs = glp_get_obj_val(lp);
  if (!(*zs > 0) || !isfinite(*zs))
    return hnm_fail(err, errlen, "LP: GLPK: optimum Z = %g, not positive", *zs);
  return 0;
}

/* Bytes per path: the pair's bytes in proportion to its flows, so that
 * every demand is met exactly whatever GLPK's rounding. -1 with err filled
 * (out then partly filled: the caller frees it). */
static int lp__split(const struct hnm_pattern *pt, const struct hnm_pathset *cand, const double *flow,
                     struct hnm_pathset *out, char *err, size_t errlen)
{
  out->npairs = pt->npairs;
  out->first = calloc(pt->npairs + 1, sizeof *out->first);
  out->off = malloc((cand->npaths + 1) * sizeof *out->off);
  out->bytes = malloc((cand->npaths ? cand->npaths : 1) * sizeof *out->bytes);
  out->arcs = malloc((cand->narcs ? cand->narcs : 1) * sizeof *out->arcs);
  if (out->first == NULL || out->off == NULL || out->bytes == NULL || out->arcs == NULL)
    return hnm_fail(err, errlen, "out of memory");
  out->cap_paths = cand->npaths;
  out->cap_arcs = cand->narcs;
  out->off[0] = 0;
  for (size_t j = 0; j < pt->npairs; j++) {
    double sum = 0;
    for (size_t p = cand->first[j]; p < cand->first[j + 1]; p++)
      sum += flow[p];
    if (!(sum > 0))
      return hnm_fail(err, errlen, "LP: GLPK's optimum gives pair %u -> %u no flow", pt->pairs[j].src,
                      pt->pairs[j].dst);
    for (size_t p = cand->first[j]; p < cand->first[j + 1]; p++) {
      size_t len = cand->off[p + 1] - cand->off[p];
      if (flow[p] <= 0)
        continue;
      memcpy(out->arcs + out->narcs, cand->arcs + cand->off[p], len * sizeof *out->arcs);
      out->narcs += len;
      out->bytes[out->npaths] = pt->pairs[j].bytes * (flow[p] / sum);
      out->npaths++;
      out->off[out->npaths] = out->narcs;
    }
    out->first[j + 1] = out->npaths;
  }
  return 0;
}

int hnm_paths_lp(const struct hnm_torus *g, const struct hnm_pattern *pt, const struct hnm_pathset *cand,
                 double capacity, double time_limit, struct hnm_pathset *out, double *z_out, char *err,
                 size_t errlen)
{
  size_t narcs = g->n * HNM_PATHS_DEGREE;
  int *row_of_arc = calloc(narcs, sizeof *row_of_arc);
  int *ia = NULL, *ja = NULL;
  double *ar = NULL, *flow = NULL;
  glp_prob *lp = NULL;
  double dmax = 0, zs;
  size_t nnz;
  int nrows, ret = -1;

  memset(out, 0, sizeof *out);
  if (row_of_arc == NULL)
    goto oom;
  if (cand->npaths > (size_t)(1 << 30) || cand->narcs > (size_t)(1 << 30)) {
    hnm_errf(err, errlen, "LP: too large for GLPK (%zu paths)", cand->npaths);
    goto done;
  }
  for (size_t j = 0; j < pt->npairs; j++)
    if (pt->pairs[j].bytes > dmax)
      dmax = pt->pairs[j].bytes;

  /* Rows 1..npairs: demands; then one row per link used. */
  nrows = (int)pt->npairs;
  for (size_t a = 0; a < cand->narcs; a++)
    if (row_of_arc[cand->arcs[a]] == 0)
      row_of_arc[cand->arcs[a]] = ++nrows;
  nnz = cand->npaths + pt->npairs + cand->narcs;
  ia = malloc((nnz + 1) * sizeof *ia);
  ja = malloc((nnz + 1) * sizeof *ja);
  ar = malloc((nnz + 1) * sizeof *ar);
  flow = malloc((cand->npaths ? cand->npaths : 1) * sizeof *flow);
  if (ia == NULL || ja == NULL || ar == NULL || flow == NULL)
    goto oom;

  glp_term_out(GLP_OFF);
  lp = glp_create_prob();
  lp__load(lp, pt, cand, row_of_arc, nrows, dmax, ia, ja, ar);
  if (lp__solve(lp, time_limit, &zs, err, errlen) != 0)
    goto done;
  for (size_t p = 0; p < cand->npaths; p++) {
    double f = glp_get_col_prim(lp, (int)p + 2);
    flow[p] = f > 0 ? f : 0;
  }
  *z_out = zs * capacity / dmax;
  if (lp__split(pt, cand, flow, out, err, errlen) != 0)
    goto done;
  ret = 0;
  goto done;
oom:
  hnm_errf(err, errlen, "out of memory");
done:
  /* Every path, success or not, frees the problem and the arrays. */
  if (ret != 0)
    hnm_pathset_free(out);
  if (lp != NULL)
    glp_delete_prob(lp);
  free(row_of_arc);
  free(ia);
  free(ja);
  free(ar);
  free(flow);
  return ret;
}
