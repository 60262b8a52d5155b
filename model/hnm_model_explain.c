/* hnm_model_explain.c -- a model in words (hnm-run --explain). */
#include "hnm_model.h"
#include "hnm_units.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnm_model_impl.h"

/* ------------------------------------------------------------------ */
/* Explain                                                              */

static void explain__threshold(FILE *f, const char *what, long v)
{
  if (v < 0)
    fprintf(f, "%s never", what);
  else
    fprintf(f, "%s k <= %ld B", what, v);
}

static void explain__overhead(FILE *f, const char *what, double o, double O)
{
  fprintf(f, ", %s %.6g s + %.6g s/B", what, o, O);
}

static void explain__table(FILE *f, const struct hnm_segment *t, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++) {
    const struct hnm_segment *s = &t[i];

    if (i == 0 && isinf(s->upto))
      fprintf(f, "    any k: ");
    else if (i == 0)
      fprintf(f, "    k <= %.15g B: ", s->upto);
    else if (isinf(s->upto))
      fprintf(f, "    k > %.15g B: ", t[i - 1].upto);
    else
      fprintf(f, "    %.15g < k <= %.15g B: ", t[i - 1].upto, s->upto);
    if (s->latency_absolute)
      fprintf(f, "lat %.6g s", s->latency_s);
    else
      fprintf(f, "lat x%.6g", s->lat_factor);
    if (s->bandwidth_absolute)
      fprintf(f, ", bw %.6g B/s", s->bandwidth_Bps);
    else
      fprintf(f, ", bw x%.6g", s->bw_factor);
    if (s->send_o == 0 && s->send_O == 0 && s->isend_o == 0 && s->isend_O == 0 && s->recv_o == 0 &&
        s->recv_O == 0) {
      fprintf(f, ", no overheads");
    } else {
      explain__overhead(f, "send", s->send_o, s->send_O);
      explain__overhead(f, "isend", s->isend_o, s->isend_O);
      explain__overhead(f, "recv", s->recv_o, s->recv_O);
    }
    if (s->nresiduals >= 2)
      fprintf(f, ", residuals: %zu quantiles from %.6g to %.6g (median %.6g, mean %.6g, sd %.6g)", s->nresiduals,
              s->residuals[0], s->residuals[s->nresiduals - 1], hnm_segment_residual(s, 0.5),
              hnm_segment_residual_mean(s), sqrt(hnm_segment_residual_variance(s)));
    if (s->nsized > 0)
      fprintf(f, ", %zu per-size residual table(s) at %.15g to %.15g B (a message draws from the nearest size's)",
              s->nsized, s->sized[0].size, s->sized[s->nsized - 1].size);
    fputc('\n', f);
  }
}

void hnm_model_explain(const hnm_model *m, void *file)
{
  static const char *const contention[] = {"maxmin", "none"};
  static const char *const crosstraffic[] = {"as SimGrid configures it", "on", "off"};
  FILE *f = file;
  int c, i;

  fprintf(f, "model: %s", m->name);
  if (m->description != NULL)
    fprintf(f, " (%s)", m->description);
  fputc('\n', f);
  if (m->source != NULL)
    fprintf(f, "  source: %s\n", m->source);
  if (m->overrides != NULL)
    fprintf(f, "  overrides: %s\n", m->overrides);
  if (m->is_loggps) {
    fprintf(f, "  loggps:");
    for (i = 0; i < LG_COUNT; i++) {
      const char *unit = model__lg_params[i].kind == KIND_BYTES ? "B"
                         : (i == LG_L || i == LG_o)             ? "s"
                                                                : "s/B";
      fprintf(f, " %s=%.6g %s", model__lg_params[i].name, m->loggps[i], unit);
    }
    fputc('\n', f);
    if (m->loggps_from_route)
      fprintf(f, "  platform: L, g and G of each message from its route (L = the sum of its links' latencies, "
                 "g = G = 1 / its narrowest link's bandwidth); the values above are not used\n");
    fprintf(f, "  ports: %s (%s), gap=%.6g s between the starts of two messages through one port\n",
            hnm_ports_name(m->ports),
            m->ports == HNM_PORTS_SINGLE   ? "one port per host: the sends and receives of all its ranks, one after "
                                             "the other"
            : m->ports == HNM_PORTS_DUPLEX ? "a send port and a receive port per host, shared by its ranks, as "
                                             "LogGOPSim"
                                           : "no port: every message alone on the network, contention-free",
            m->gap);
    if (m->ports != HNM_PORTS_MULTI)
      fprintf(f, "  ranks on one host share its port(s): more ranks per host serialise more messages (ports=multi "
                 "does not)\n");
    fprintf(f, "  transfers: timed by the port rule (docs/models.md, \"Ports\"); the segments below give the "
               "overheads and, for a message alone, its transfer\n");
  }
  fprintf(f, "  protocol: ");
  explain__threshold(f, "eager (async)", m->async_max);
  fprintf(f, ", ");
  explain__threshold(f, "detached", m->detached_max);
  fprintf(f, ", rendez-vous above\n");
  switch (m->limiter) {
  case HNM_LIMITER_KEEP:
    fprintf(f, "  limiter: keep the platform's limiter links\n");
    break;
  case HNM_LIMITER_OFF:
    fprintf(f, "  limiter: off\n");
    break;
  case HNM_LIMITER_FACTOR:
    fprintf(f, "  limiter: %.6g x node bandwidth\n", m->limiter_factor);
    break;
  }
  fprintf(f, "  sharing: contention %s, crosstraffic %s, selective update %s\n", contention[m->contention],
          crosstraffic[m->crosstraffic],
          m->update == HNM_UPDATE_SIMGRID ? "SimGrid's own (defect included)" : "mended");
  if (m->stochastic)
    fprintf(f, "  stochastic: on, seed %llu (unless --cfg=hnm/seed): each message's one-way time x a residual "
            "drawn from its segment's quantiles\n", hnm_model_seed(m));
  /* The "any" table first, with the classes that use it. */
  for (i = 0; i < MODEL__TABLES; i++) {
    const int t = i == 0 ? MODEL__ANY : i - 1;
    const char *sep = "";

    if (m->table[t] == NULL)
      continue;
    fprintf(f, "  segments route=%s (used for:", model__route_names[t]);
    for (c = 0; c < HNM_ROUTE_CLASSES; c++) {
      if (m->seg[c] == m->table[t]) {
        fprintf(f, "%s %s", sep, model__route_names[c]);
        sep = ",";
      }
    }
    fprintf(f, "%s; k in payload bytes):\n", *sep == '\0' ? " none" : "");
    explain__table(f, m->table[t], m->table_len[t]);
  }
  if (m->has_rma) {
    const struct hnm_rma *r = &m->rma;
    fprintf(f, "  rma: origin overhead put %.6g s + %.6g s/B, get %.6g s + %.6g s/B; no receive overhead;\n",
            r->put_o, r->put_O, r->get_o, r->get_O);
    fprintf(f, "       per call fence %.6g s, post/start/complete/wait %.6g s, lock/unlock %.6g s, flush %.6g s\n",
            r->fence, r->pscw, r->lock, r->flush);
  } else {
    fprintf(f, "  rma: none (MPI_Put/Get/Accumulate timed as SMPI does: point-to-point overheads)\n");
  }
  model__explain_pack(f, m);
}
