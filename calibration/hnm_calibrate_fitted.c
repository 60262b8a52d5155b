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
#include "hnm_msg.h"
#include "hnm_out.h"
#include "hnm_calibrate_util.h"

const struct cal_segment *cal_seg_of(const struct cal_fitted *m, double k)
{
  size_t i = 0;
  while (i + 1 < m->nseg && k > m->seg[i].upto)
    i++;
  return &m->seg[i];
}

/* What SMPI makes of the fitted hybrid model (the file comment). */
double cal_hybrid_predict(const struct cal_fitted *m, int op, double k)
{
  const struct cal_segment *s = cal_seg_of(m, k);
  double T = s->lat + k / s->bw;
  double so = s->so + k * s->sb, ro = s->ro + k * s->rb;
  switch (op) {
    case CAL_OP_SEND:
      return k <= m->detached ? so : T;
    case CAL_OP_RECV:
      return k <= m->async ? ro : k <= m->detached ? T + ro : T;
    case CAL_OP_PINGPONG:
      return k <= m->detached ? 2 * (so + T + ro) : 2 * T;
    case CAL_OP_ISEND:
      return s->io + k * s->ib;
    default:
      return 0;
  }
}

/* hnm's LogGPS expansion (docs/model-format.md) with g = G, s = 0. */
double cal_loggps_predict(const struct cal_fitted *m, int op, double k)
{
  double o = m->lg_o, L = m->lg_L, S = m->detached;
  if (k > S) {
    double X = 6 * o + 3 * L + k * (m->lg_G + m->lg_Os + m->lg_Or);
    return op == CAL_OP_PINGPONG ? 2 * X : op == CAL_OP_ISEND ? o : op == CAL_OP_IRECV ? 0 : X;
  }
  switch (op) {
    case CAL_OP_SEND:
      return o + k * m->lg_Os;
    case CAL_OP_RECV:
      return o + k * m->lg_Or;
    case CAL_OP_PINGPONG:
      return 2 * (2 * o + k * (m->lg_Os + m->lg_Or) + L + k * m->lg_G);
    case CAL_OP_ISEND:
      return o;
    default:
      return 0;
  }
}

/* Fluid: T = L + k/B, no overhead, same protocol thresholds. */
double cal_fluid_predict(const struct cal_fitted *m, int op, double k)
{
  double T = m->fl_L + k / m->fl_B;
  switch (op) {
    case CAL_OP_SEND:
      return k <= m->detached ? 0 : T;
    case CAL_OP_RECV:
      return k <= m->async ? 0 : T;
    case CAL_OP_PINGPONG:
      return 2 * T;
    default:
      return 0;
  }
}

/* Write FILE atomically: callback into a temp file, then rename. */
void cal_write_size(FILE *f, double v)
{
  if (v < 0)
    fprintf(f, "none");
  else
    fprintf(f, "%.0f", v);
}

/* The fitted models as hnm models (checked by hnm_model_new(): what the
 * loader would refuse is never written). */
static hnm_model *fitted__model(const struct hnm_model_desc *d)
{
  char e[HNM_ERRLEN];
  hnm_model *model = hnm_model_new(d, e, sizeof e);
  if (model == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "internal error: the fitted model does not load: %s", e);
  return model;
}

hnm_model *cal_build_hybrid(const struct cal_fitted *m, const char *name)
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
  struct hnm_segment *seg = calloc(m->nseg ? m->nseg : 1, sizeof *seg);
  if (seg == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "out of memory");
  for (size_t i = 0; i < m->nseg; i++) {
    const struct cal_segment *s = &m->seg[i];
    seg[i] = (struct hnm_segment){.upto = s->upto, .latency_absolute = 1, .latency_s = s->lat, .lat_factor = 1,
                                  .bandwidth_absolute = 1, .bandwidth_Bps = s->bw, .bw_factor = 1,
                                  .send_o = s->so, .send_O = s->sb, .recv_o = s->ro, .recv_O = s->rb,
                                  .isend_o = s->io, .isend_O = s->ib,
                                  .nresiduals = s->nres, .residuals = s->nres ? s->res : NULL};
  }
  struct hnm_model_desc d = {name, description, (long)m->async, (long)m->detached,
                             m->limiter > 0 ? HNM_LIMITER_FACTOR : HNM_LIMITER_KEEP, m->limiter > 0 ? m->limiter : 0,
                             HNM_CONTENTION_MAXMIN, HNM_CROSSTRAFFIC_OFF, NULL, seg, m->nseg, m->has_pack ? &m->pack : NULL, HNM_UPDATE_FIXED,
                             m->has_rma ? &m->rma : NULL};
  hnm_model *model = fitted__model(&d);
  free(seg);
  return model;
}

hnm_model *cal_build_loggps(const struct cal_fitted *m, const char *name)
{
  char full[512];
  snprintf(full, sizeof full, "%s-loggps", name);
  const double p[8] = {m->lg_L, m->lg_o, m->lg_G, m->lg_G, 0, m->detached > 0 ? m->detached : 0, m->lg_Os, m->lg_Or};
  struct hnm_model_desc d = {full, "Single-segment LogGPS fit by hnm-calibrate (g = G, s = 0, S = detached)", -1, -1,
                             HNM_LIMITER_KEEP, 0, HNM_CONTENTION_MAXMIN, HNM_CROSSTRAFFIC_SIMGRID, p, NULL, 0, m->has_pack ? &m->pack : NULL, HNM_UPDATE_FIXED, NULL};
  return fitted__model(&d);
}

hnm_model *cal_build_fluid(const struct cal_fitted *m, const char *name)
{
  char full[512];
  snprintf(full, sizeof full, "%s-fluid", name);
  const struct hnm_segment seg = {.upto = INFINITY, .latency_absolute = 1, .latency_s = m->fl_L, .lat_factor = 1,
                                  .bandwidth_absolute = 1, .bandwidth_Bps = m->fl_B, .bw_factor = 1};
  struct hnm_model_desc d = {full, "Fluid fit by hnm-calibrate: latency + bandwidth only", (long)m->async,
                             (long)m->detached, HNM_LIMITER_OFF, 0, HNM_CONTENTION_MAXMIN, HNM_CROSSTRAFFIC_OFF,
                             NULL, &seg, 1, m->has_pack ? &m->pack : NULL, HNM_UPDATE_FIXED, NULL};
  return fitted__model(&d);
}

/* Write the model BUILD makes of M into O (opened on PATH by
 * hnm_out_open(): a temporary renamed over a regular file, written through
 * to a device), committed. O is consumed. */
void cal_write_model_finish(hnm_out *o, const char *path, hnm_model *(*build)(const struct cal_fitted *, const char *),
                        const struct cal_fitted *m, const char *name)
{
  char err[2200];
  char e[HNM_ERRLEN];
  hnm_model *model = build(m, name);
  int rc = hnm_model_write(model, hnm_out_file(o), e, sizeof e);
  hnm_model_free(model);
  /* A failed write is exit status 2 with one line naming the file and the
   * reason the output module kept (ENOSPC), as bad input is. */
  if (rc != 0) {
    if (hnm_out_finish(o, err, sizeof err) == 0)
      snprintf(err, sizeof err, "'%s': %s", path, e);
    hnm_out_abort(o);
    hnm_msg_die(HNM_EXIT_USAGE, "%s", err);
  }
  if (hnm_out_finish(o, err, sizeof err) != 0) {
    hnm_out_abort(o);
    hnm_msg_die(HNM_EXIT_USAGE, "%s", err);
  }
}

void cal_write_model_out(hnm_out *o, const char *path, hnm_model *(*build)(const struct cal_fitted *, const char *),
                     const struct cal_fitted *m, const char *name)
{
  char err[1024];
  cal_write_model_finish(o, path, build, m, name);
  if (hnm_out_commit(o, err, sizeof err) != 0)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", err);
}

void cal_write_model(const char *path, hnm_model *(*build)(const struct cal_fitted *, const char *), const struct cal_fitted *m,
                 const char *name)
{
  char err[1024];
  hnm_out *o = hnm_out_open(path, "--report", err, sizeof err);
  if (o == NULL)
    hnm_msg_die(HNM_EXIT_USAGE, "%s", err);
  cal_write_model_out(o, path, build, m, name);
}
