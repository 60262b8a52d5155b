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

const struct segment *seg_of(const struct fitted *m, double k)
{
  size_t i = 0;
  while (i + 1 < m->nseg && k > m->seg[i].upto)
    i++;
  return &m->seg[i];
}

/* What SMPI makes of the fitted hybrid model (the file comment). */
double hybrid_predict(const struct fitted *m, int op, double k)
{
  const struct segment *s = seg_of(m, k);
  double T = s->lat + k / s->bw;
  double so = s->so + k * s->sb, ro = s->ro + k * s->rb;
  switch (op) {
    case OP_SEND:
      return k <= m->detached ? so : T;
    case OP_RECV:
      return k <= m->async ? ro : k <= m->detached ? T + ro : T;
    case OP_PINGPONG:
      return k <= m->detached ? 2 * (so + T + ro) : 2 * T;
    case OP_ISEND:
      return s->io + k * s->ib;
    default:
      return 0;
  }
}

/* hnm's LogGPS expansion (docs/model-format.md) with g = G, s = 0. */
double loggps_predict(const struct fitted *m, int op, double k)
{
  double o = m->lg_o, L = m->lg_L, S = m->detached;
  if (k > S) {
    double X = 6 * o + 3 * L + k * (m->lg_G + m->lg_Os + m->lg_Or);
    return op == OP_PINGPONG ? 2 * X : op == OP_ISEND ? o : op == OP_IRECV ? 0 : X;
  }
  switch (op) {
    case OP_SEND:
      return o + k * m->lg_Os;
    case OP_RECV:
      return o + k * m->lg_Or;
    case OP_PINGPONG:
      return 2 * (2 * o + k * (m->lg_Os + m->lg_Or) + L + k * m->lg_G);
    case OP_ISEND:
      return o;
    default:
      return 0;
  }
}

/* Fluid: T = L + k/B, no overhead, same protocol thresholds. */
double fluid_predict(const struct fitted *m, int op, double k)
{
  double T = m->fl_L + k / m->fl_B;
  switch (op) {
    case OP_SEND:
      return k <= m->detached ? 0 : T;
    case OP_RECV:
      return k <= m->async ? 0 : T;
    case OP_PINGPONG:
      return 2 * T;
    default:
      return 0;
  }
}

/* Write FILE atomically: callback into a temp file, then rename. */
void write_size(FILE *f, double v)
{
  if (v < 0)
    fprintf(f, "none");
  else
    fprintf(f, "%.0f", v);
}

void write_hybrid(FILE *f, const struct fitted *m, const char *name)
{
  fprintf(f, "<?xml version=\"1.0\"?>\n<!DOCTYPE hnm-model SYSTEM \"hnm-model.dtd\">\n");
  fprintf(f, "<hnm-model name=\"%s\" version=\"1\">\n", name);
  fprintf(f, "  <description>Hybrid model fitted by hnm-calibrate from %d CSV file(s) (see its report)</description>\n",
          m->nfiles);
  fprintf(f, "  <protocol async=\"");
  write_size(f, m->async);
  fprintf(f, "\" detached=\"");
  write_size(f, m->detached);
  fprintf(f, "\"/>\n");
  if (m->limiter > 0)
    fprintf(f, "  <limiter factor=\"%.17g\"/>\n", m->limiter);
  fprintf(f, "  <sharing contention=\"maxmin\" crosstraffic=\"off\"/>\n  <segments route=\"any\">\n");
  for (size_t i = 0; i < m->nseg; i++) {
    const struct segment *s = &m->seg[i];
    fprintf(f, "    <segment upto=\"");
    if (isinf(s->upto))
      fprintf(f, "inf");
    else
      fprintf(f, "%.0f", s->upto);
    fprintf(f, "\" latency=\"%.17gs\" bandwidth=\"%.17gBps\"", s->lat, s->bw);
    fprintf(f, " send-o=\"%.17gs\" send-per-byte=\"%.17gs\" recv-o=\"%.17gs\" recv-per-byte=\"%.17gs\"", s->so,
            s->sb, s->ro, s->rb);
    fprintf(f, " isend-o=\"%.17gs\" isend-per-byte=\"%.17gs\"/>\n", s->io, s->ib);
  }
  fprintf(f, "  </segments>\n</hnm-model>\n");
}

void write_loggps(FILE *f, const struct fitted *m, const char *name)
{
  fprintf(f, "<?xml version=\"1.0\"?>\n<hnm-model name=\"%s-loggps\" version=\"1\">\n", name);
  fprintf(f, "  <description>Single-segment LogGPS fit by hnm-calibrate (g = G, s = 0, S = detached)</description>\n");
  fprintf(f, "  <loggps L=\"%.17gs\" o=\"%.17gs\" g=\"%.17gs\" G=\"%.17gs\" s=\"0\" S=\"%.0f\" Os=\"%.17gs\" Or=\"%.17gs\"/>\n",
          m->lg_L, m->lg_o, m->lg_G, m->lg_G, m->detached > 0 ? m->detached : 0, m->lg_Os, m->lg_Or);
  fprintf(f, "</hnm-model>\n");
}

void write_fluid(FILE *f, const struct fitted *m, const char *name)
{
  fprintf(f, "<?xml version=\"1.0\"?>\n<hnm-model name=\"%s-fluid\" version=\"1\">\n", name);
  fprintf(f, "  <description>Fluid fit by hnm-calibrate: latency + bandwidth only</description>\n");
  fprintf(f, "  <protocol async=\"");
  write_size(f, m->async);
  fprintf(f, "\" detached=\"");
  write_size(f, m->detached);
  fprintf(f, "\"/>\n  <limiter factor=\"off\"/>\n  <sharing contention=\"maxmin\" crosstraffic=\"off\"/>\n");
  fprintf(f, "  <segments route=\"any\">\n    <segment upto=\"inf\" latency=\"%.17gs\" bandwidth=\"%.17gBps\"/>\n",
          m->fl_L, m->fl_B);
  fprintf(f, "  </segments>\n</hnm-model>\n");
}

/* Write a model: into memory, loaded back with hnm's own loader (so that
 * nothing hnm-run would refuse is ever written), then into O (opened on
 * PATH by hnm_out_open(): a temporary renamed over a regular file, written
 * through to a device), committed. O is consumed. */
void write_model_out(hnm_out *o, const char *path, void (*writer)(FILE *, const struct fitted *, const char *),
                     const struct fitted *m, const char *name)
{
  char *buf = NULL, err[1024];
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (f == NULL) {
    hnm_out_abort(o);
    die("out of memory");
  }
  writer(f, m, name);
  if (fclose(f) != 0) {
    hnm_out_abort(o);
    die("out of memory");
  }
  hnm_error e;
  hnm_model *chk = hnm_model_load_memory(path, buf, len, &e);
  if (chk == NULL) {
    hnm_out_abort(o);
    free(buf);
    die("internal error: the fitted model does not load: %s", e.msg);
  }
  hnm_model_free(chk);
  size_t put = fwrite(buf, 1, len, hnm_out_file(o));
  free(buf);
  if (put != len || hnm_out_commit(o, err, sizeof err) != 0) {
    if (put != len) {
      snprintf(err, sizeof err, "'%s': write error: %s", path, strerror(errno));
      hnm_out_abort(o);
    }
    hnm_msg_die(1, "%s", err);
  }
}

void write_model(const char *path, void (*writer)(FILE *, const struct fitted *, const char *),
                 const struct fitted *m, const char *name)
{
  char err[1024];
  hnm_out *o = hnm_out_open(path, path, err, sizeof err);
  if (o == NULL)
    hnm_msg_die(1, "%s", err);
  write_model_out(o, path, writer, m, name);
}
