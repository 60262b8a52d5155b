/* hnm-calibrate: predictions of the fitted model and writing its model files. */
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
#include "hnm_calibrate_fitted.h"
#include "hnm_out.h"
#include "hnm_calibrate_util.h"

/* A threshold as the report writes it: bytes, or "none". */
void cal_write_size(FILE *f, double v)
{
  if (v < 0)
    fprintf(f, "none");
  else
    fprintf(f, "%.0f", v);
}

/* The fitted models as hnm models (checked by hnm_model_new(): what the
 * loader would refuse is never written). */
static hnm_model *fitted__model(const struct hnm_model_desc *d, char *err, size_t errlen)
{
  char e[HNM_ERRLEN];
  hnm_model *model = hnm_model_new(d, e, sizeof e);
  if (model == NULL)
    hnm_errf(err, errlen, "internal error: the fitted model does not load: %s", e);
  return model;
}

hnm_model *cal_build_hybrid(const struct cal_fitted *m, const char *name, char *err, size_t errlen)
{
  char description[256];
  if (m->member > 0)
    snprintf(description, sizeof description,
             "Bootstrap member %d of %d of the hybrid model fitted by hnm-calibrate from %d CSV file(s) (see its "
             "report)",
             m->member, m->members, m->nfiles);
  else
    snprintf(description, sizeof description,
             "Hybrid model fitted by hnm-calibrate from %d CSV file(s) (see its report)", m->nfiles);
  struct hnm_segment *seg = calloc(m->f.nseg ? m->f.nseg : 1, sizeof *seg);
  struct hnm_residual_table *tab = calloc(m->f.nsized ? m->f.nsized : 1, sizeof *tab);
  if (seg == NULL || tab == NULL) {
    free(seg);
    free(tab);
    hnm_errf(err, errlen, "out of memory");
    return NULL;
  }
  for (size_t i = 0; i < m->f.nseg; i++) {
    const hnm_fit_segment *s = &m->f.seg[i];
    seg[i] = (struct hnm_segment){.upto = s->upto, .latency_absolute = 1, .latency_s = s->lat, .lat_factor = 1,
                                  .bandwidth_absolute = 1, .bandwidth_Bps = s->bw, .bw_factor = 1,
                                  .send_o = s->so, .send_O = s->sb, .recv_o = s->ro, .recv_O = s->rb,
                                  .isend_o = s->io, .isend_O = s->ib,
                                  .nresiduals = s->nres, .residuals = s->nres ? s->res : NULL};
  }
  /* The per-size tables, in increasing size: each segment's are a run. */
  for (size_t t = 0; t < m->f.nsized; t++) {
    const hnm_fit_sized *z = &m->f.sized[t];
    tab[t] = (struct hnm_residual_table){.size = z->k, .n = HNM_FIT_RESIDUALS, .q = z->res};
    if (seg[z->seg].nsized == 0)
      seg[z->seg].sized = &tab[t];
    seg[z->seg].nsized++;
  }
  struct hnm_model_desc d = {name, description, (long)m->f.async, (long)m->f.detached,
                             m->f.limiter > 0 ? HNM_LIMITER_FACTOR : HNM_LIMITER_KEEP, m->f.limiter > 0 ? m->f.limiter : 0,
                             HNM_CONTENTION_MAXMIN, HNM_CROSSTRAFFIC_OFF, NULL, seg, m->f.nseg, m->has_pack ? &m->pack : NULL, HNM_UPDATE_FIXED,
                             m->has_rma ? &m->rma : NULL};
  hnm_model *model = fitted__model(&d, err, errlen);
  free(seg);
  free(tab);
  return model;
}

hnm_model *cal_build_loggps(const struct cal_fitted *m, const char *name, char *err, size_t errlen)
{
  char full[512];
  snprintf(full, sizeof full, "%s-loggps", name);
  const double p[8] = {m->f.lg_L, m->f.lg_o, m->f.lg_G, m->f.lg_G, 0, m->f.detached > 0 ? m->f.detached : 0, m->f.lg_Os, m->f.lg_Or};
  struct hnm_model_desc d = {full, "Single-segment LogGPS fit by hnm-calibrate (g = G, s = 0, S = detached)", -1, -1,
                             HNM_LIMITER_KEEP, 0, HNM_CONTENTION_MAXMIN, HNM_CROSSTRAFFIC_SIMGRID, p, NULL, 0, m->has_pack ? &m->pack : NULL, HNM_UPDATE_FIXED, NULL};
  return fitted__model(&d, err, errlen);
}

hnm_model *cal_build_fluid(const struct cal_fitted *m, const char *name, char *err, size_t errlen)
{
  char full[512];
  snprintf(full, sizeof full, "%s-fluid", name);
  const struct hnm_segment seg = {.upto = INFINITY, .latency_absolute = 1, .latency_s = m->f.fl_L, .lat_factor = 1,
                                  .bandwidth_absolute = 1, .bandwidth_Bps = m->f.fl_B, .bw_factor = 1};
  struct hnm_model_desc d = {full, "Fluid fit by hnm-calibrate: latency + bandwidth only", (long)m->f.async,
                             (long)m->f.detached, HNM_LIMITER_OFF, 0, HNM_CONTENTION_MAXMIN, HNM_CROSSTRAFFIC_OFF,
                             NULL, &seg, 1, m->has_pack ? &m->pack : NULL, HNM_UPDATE_FIXED, NULL};
  return fitted__model(&d, err, errlen);
}

/* Write the model BUILD makes of M into O (opened on PATH by
 * hnm_out_open(): a temporary renamed over a regular file, written through
 * to a device) and flush it. On failure O is aborted. */
int cal_write_model_finish(hnm_out *o, const char *path, cal_build_fn build, const struct cal_fitted *m,
                           const char *name, char *err, size_t errlen)
{
  char e[HNM_ERRLEN];
  hnm_model *model = build(m, name, err, errlen);
  if (model == NULL) {
    hnm_out_abort(o);
    return -1;
  }
  int rc = hnm_model_write(model, hnm_out_file(o), e, sizeof e);
  hnm_model_free(model);
  /* A failed write: one line naming the file and the reason the output
   * module kept (ENOSPC). */
  if (rc != 0) {
    if (hnm_out_finish(o, err, errlen) == 0)
      hnm_errf(err, errlen, "'%s': %s", path, e);
    hnm_out_abort(o);
    return -1;
  }
  if (hnm_out_finish(o, err, errlen) != 0) {
    hnm_out_abort(o);
    return -1;
  }
  return 0;
}

int cal_write_model_out(hnm_out *o, const char *path, cal_build_fn build, const struct cal_fitted *m, const char *name,
                        char *err, size_t errlen)
{
  if (cal_write_model_finish(o, path, build, m, name, err, errlen) != 0)
    return -1;
  return hnm_out_commit(o, err, errlen);
}

int cal_write_model(const char *path, cal_build_fn build, const struct cal_fitted *m, const char *name, char *err,
                    size_t errlen)
{
  hnm_out *o = hnm_out_open(path, "--report", err, errlen);
  if (o == NULL)
    return -1;
  return cal_write_model_out(o, path, build, m, name, err, errlen);
}
