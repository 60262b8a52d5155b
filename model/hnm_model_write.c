/* hnm_model_write.c -- a model as a model file, through core's XML writer
 * (core/hnm_xml_writer.h: escaping, indentation), and models built in
 * memory (hnm_model_new(), what hnm-calibrate fits), checked by writing them
 * and loading them back with the file loader: whatever hnm_model_new()
 * returns, hnm-run accepts. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_model.h"
#include "hnm_model_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnm_xml_writer.h"

static int write__attr(hnm_xml_writer *w, const char *name, const char *value)
{
  return hnm_xml_writer_attr(w, name, value) != 0 ? -1 : 0;
}

/* "%.17g" followed by UNIT ("s", "Bps", "" for a plain number). */
static int write__num(hnm_xml_writer *w, const char *name, double v, const char *unit)
{
  char buf[64];
  snprintf(buf, sizeof buf, "%.17g%s", v, unit);
  return write__attr(w, name, buf);
}

/* Bytes: a whole number, "none" below 0, "inf" for infinity. */
static int write__bytes(hnm_xml_writer *w, const char *name, double v)
{
  char buf[64];
  if (isinf(v))
    snprintf(buf, sizeof buf, "inf");
  else if (v < 0)
    snprintf(buf, sizeof buf, "none");
  else
    snprintf(buf, sizeof buf, "%.0f", v);
  return write__attr(w, name, buf);
}

/* N residual quantiles Q, blank-separated. */
static int write__quantiles(hnm_xml_writer *w, const char *name, const double *q, size_t n)
{
  /* %.9g: 9 digits, far below any measurement's noise, and short. */
  char *text = malloc(n * 24 + 1);
  if (text == NULL)
    return -1;
  size_t used = 0;
  text[0] = '\0';
  for (size_t i = 0; i < n; i++)
    used += (size_t)snprintf(text + used, 24, "%s%.9g", i ? " " : "", q[i]);
  int rc = write__attr(w, name, text);
  free(text);
  return rc;
}

static int write__segment(hnm_xml_writer *w, const struct hnm_segment *s)
{
  if (hnm_xml_writer_start(w, "segment") != 0 || write__bytes(w, "upto", s->upto) != 0 ||
      (s->latency_absolute ? write__num(w, "latency", s->latency_s, "s")
                           : write__num(w, "lat-factor", s->lat_factor, "")) != 0 ||
      (s->bandwidth_absolute ? write__num(w, "bandwidth", s->bandwidth_Bps, "Bps")
                             : write__num(w, "bw-factor", s->bw_factor, "")) != 0)
    return -1;
  const struct {
    const char *attr;
    double v;
  } o[] = {{"send-o", s->send_o},   {"send-per-byte", s->send_O}, {"recv-o", s->recv_o},
           {"recv-per-byte", s->recv_O}, {"isend-o", s->isend_o}, {"isend-per-byte", s->isend_O}};
  int any = 0;
  for (size_t i = 0; i < sizeof o / sizeof o[0]; i++)
    any |= o[i].v != 0;
  for (size_t i = 0; any && i < sizeof o / sizeof o[0]; i++)
    if (write__num(w, o[i].attr, o[i].v, "s") != 0)
      return -1;
  if (s->nresiduals >= 2 && s->residuals != NULL && write__quantiles(w, "residuals", s->residuals, s->nresiduals) != 0)
    return -1;
  for (size_t i = 0; s->sized != NULL && i < s->nsized; i++)
    if (hnm_xml_writer_start(w, "residuals") != 0 || write__bytes(w, "size", s->sized[i].size) != 0 ||
        write__quantiles(w, "quantiles", s->sized[i].q, s->sized[i].n) != 0 || hnm_xml_writer_end(w) != 0)
      return -1;
  return hnm_xml_writer_end(w) != 0 ? -1 : 0;
}

/* <rma>, every attribute written (0 included) so that the file says what
 * the model charges. */
static int write__rma(hnm_xml_writer *w, const hnm_model *m)
{
  if (!m->has_rma)
    return 0;
  if (hnm_xml_writer_start(w, "rma") != 0)
    return -1;
  struct hnm_rma r = m->rma;
  for (size_t i = 0; i < MODEL__RMA_ATTRS; i++)
    if (write__num(w, model__rma_attrs[i].attr, *model__rma_field(&r, i), "s") != 0)
      return -1;
  return hnm_xml_writer_end(w) != 0 ? -1 : 0;
}

static int write__model(hnm_xml_writer *w, const hnm_model *m)
{
  static const char *const contention[] = {"maxmin", "none"};
  static const char *const crosstraffic[] = {"simgrid", "on", "off"};
  if (hnm_xml_writer_raw(w, "<!DOCTYPE hnm-model SYSTEM \"hnm-model.dtd\">\n") != 0 ||
      hnm_xml_writer_start(w, "hnm-model") != 0 || write__attr(w, "name", m->name) != 0 ||
      write__attr(w, "version", "1") != 0)
    return -1;
  if (m->stochastic && write__attr(w, "stochastic", "on") != 0)
    return -1;
  if (m->has_seed) {
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", m->seed);
    if (write__attr(w, "seed", seed) != 0)
      return -1;
  }
  if (m->description != NULL &&
      hnm_xml_writer_text(w, "description", m->description) != 0)
    return -1;
  if (m->is_loggps) {
    if (hnm_xml_writer_start(w, "loggps") != 0)
      return -1;
    for (int k = 0; k < LG_COUNT; k++)
      if ((model__lg_params[k].kind == KIND_BYTES ? write__bytes(w, model__lg_params[k].name, m->loggps[k])
                                                  : write__num(w, model__lg_params[k].name, m->loggps[k], "s")) != 0)
        return -1;
    if (write__attr(w, "ports", hnm_ports_name(m->ports)) != 0 || write__num(w, "gap", m->gap, "s") != 0)
      return -1;
    return hnm_xml_writer_end(w) != 0 || model__write_pack(w, m) != 0 || hnm_xml_writer_end(w) != 0 ? -1 : 0;
  }
  if (hnm_xml_writer_start(w, "protocol") != 0 ||
      write__bytes(w, "async", (double)m->async_max) != 0 ||
      write__bytes(w, "detached", (double)m->detached_max) != 0 || hnm_xml_writer_end(w) != 0)
    return -1;
  if (m->limiter != HNM_LIMITER_KEEP &&
      (hnm_xml_writer_start(w, "limiter") != 0 ||
       (m->limiter == HNM_LIMITER_OFF ? write__attr(w, "factor", "off")
                                      : write__num(w, "factor", m->limiter_factor, "")) != 0 ||
       hnm_xml_writer_end(w) != 0))
    return -1;
  if (hnm_xml_writer_start(w, "sharing") != 0 ||
      write__attr(w, "contention", contention[m->contention]) != 0 ||
      write__attr(w, "crosstraffic", crosstraffic[m->crosstraffic]) != 0 ||
      (m->update == HNM_UPDATE_SIMGRID && write__attr(w, "update", "simgrid") != 0) ||
      hnm_xml_writer_end(w) != 0)
    return -1;
  for (int t = 0; t < MODEL__TABLES; t++) {
    if (m->table[t] == NULL)
      continue;
    if (hnm_xml_writer_start(w, "segments") != 0 || write__attr(w, "route", model__route_names[t]) != 0)
      return -1;
    for (size_t i = 0; i < m->table_len[t]; i++)
      if (write__segment(w, &m->table[t][i]) != 0)
        return -1;
    if (hnm_xml_writer_end(w) != 0)
      return -1;
  }
  if (write__rma(w, m) != 0 || model__write_pack(w, m) != 0)
    return -1;
  return hnm_xml_writer_end(w) != 0 ? -1 : 0;
}

int hnm_model_write(const hnm_model *m, void *file, char *err, size_t errlen)
{
  FILE *f = file;
  hnm_xml_writer *w = hnm_xml_writer_new(f, 1);
  if (w == NULL) {
    hnm_errf(err, errlen, "%s: out of memory", m->name);
    return -1;
  }
  int rc = write__model(w, m);
  if (hnm_xml_writer_finish(w) != 0 || rc != 0) {
    hnm_errf(err, errlen, "%s: write error", m->name);
    return -1;
  }
  return 0;
}

hnm_model *hnm_model_new(const struct hnm_model_desc *d, char *err, size_t errlen)
{
  hnm_model *m = calloc(1, sizeof *m);
  char reason[MODEL__REASON];
  const char *field = NULL;
  if (m == NULL) {
    hnm_errf(err, errlen, "out of memory");
    return NULL;
  }
  m->name = model__strdup(d->name != NULL ? d->name : "");
  m->description = d->description != NULL ? model__strdup(d->description) : NULL;
  m->async_max = d->async_max;
  m->detached_max = d->detached_max;
  m->limiter = d->limiter;
  m->limiter_factor = d->limiter_factor;
  m->contention = d->contention;
  m->crosstraffic = d->crosstraffic;
  m->update = d->update;
  if (d->pack != NULL) {
    m->has_pack = 1;
    m->pack = *d->pack;
  }
  if (m->name == NULL || (d->description != NULL && m->description == NULL)) {
    hnm_errf(err, errlen, "out of memory");
    goto err;
  }
  if (d->loggps != NULL && d->rma != NULL) {
    hnm_errf(err, errlen, "%s: rma: not available with loggps (a LogGPS model times overheads on its ports)", m->name);
    goto err;
  }
  if (d->loggps != NULL) {
    if (model__loggps_expand(m, d->loggps, &field, reason, sizeof reason) != 0) {
      hnm_errf(err, errlen, "%s: loggps %s: %s", m->name, field != NULL ? field : "", reason);
      goto err;
    }
  } else {
    if (d->nsegments == 0) {
      hnm_errf(err, errlen, "%s: no segment", m->name);
      goto err;
    }
    m->table[MODEL__ANY] = malloc(d->nsegments * sizeof *d->segments);
    if (m->table[MODEL__ANY] == NULL) {
      hnm_errf(err, errlen, "out of memory");
      goto err;
    }
    memcpy(m->table[MODEL__ANY], d->segments, d->nsegments * sizeof *d->segments);
    m->table_len[MODEL__ANY] = d->nsegments;
  }
  if (d->rma != NULL) {
    m->has_rma = 1;
    m->rma = *d->rma;
  }
  /* The one check: written, then read back by the file loader. */
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (f == NULL) {
    hnm_errf(err, errlen, "out of memory");
    goto err;
  }
  int rc = hnm_model_write(m, f, err, errlen);
  if (fclose(f) != 0 && rc == 0) {
    hnm_errf(err, errlen, "out of memory");
    rc = -1;
  }
  hnm_model *checked = rc == 0 ? hnm_model_load_memory(m->name, text, len, err, errlen) : NULL;
  free(text);
  hnm_model_free(m);
  return checked;
err:
  hnm_model_free(m);
  return NULL;
}
