/* hnm_ports.c -- LogGPS message phases and port serialisation (see
 * hnm_ports.h and docs/models.md, "Ports").
 *
 * The rendez-vous phases come from Degomme et al. 2013, Figure 1(b) for a
 * receiver that posted first: from the sender's call at t_s, T4 = L + 2o,
 * T5 = 2o + L and T1 = o + k Os pass before the data leaves (head =
 * 2L + 5o + k Os), the data takes T2 = L + W(k) (wire + port) and the
 * receiver T3 = o + k Or (rest): 6o + 2L + k (Os + Or) + T2 in all. */
#include "hnm_ports.h"

#include <string.h>

static const char *const ports__names[] = {"single", "duplex", "multi"};

const char *hnm_ports_name(enum hnm_ports p)
{
  return p >= HNM_PORTS_SINGLE && p <= HNM_PORTS_MULTI ? ports__names[p] : "?";
}

int hnm_ports_parse(const char *word, enum hnm_ports *out)
{
  for (int i = HNM_PORTS_SINGLE; i <= HNM_PORTS_MULTI; i++) {
    if (strcmp(word, ports__names[i]) == 0) {
      *out = (enum hnm_ports)i;
      return 0;
    }
  }
  return -1;
}

void hnm_loggps_phases(const struct hnm_loggps *p, double k, int from_isend, struct hnm_phases *out)
{
  out->port_s = k < p->s ? k * p->g : p->s * p->g + (k - p->s) * p->G;
  out->wire_s = p->L;
  if (k <= p->S) {
    out->head_s = 0;
    out->rest_s = 0;
  } else {
    out->head_s = 2 * p->L + (from_isend ? 4 : 5) * p->o + k * p->Os;
    out->rest_s = p->o + k * p->Or;
  }
}

static double ports__max(double a, double b)
{
  return a > b ? a : b;
}

double hnm_ports_transfer(const struct hnm_loggps *p, struct hnm_node_ports *src, struct hnm_node_ports *dst,
                          double now, const struct hnm_phases *ph)
{
  const double hold = ports__max(ph->port_s, p->gap);
  double leave, enter;

  switch (p->ports) {
  case HNM_PORTS_SINGLE:
    leave = ports__max(now + ph->head_s, ports__max(src->free_at[0], dst->free_at[0]));
    src->free_at[0] = dst->free_at[0] = leave + hold;
    enter = leave + ph->wire_s;
    break;
  case HNM_PORTS_DUPLEX:
    leave = ports__max(now + ph->head_s, src->free_at[0]);
    src->free_at[0] = leave + hold;
    enter = ports__max(leave + ph->wire_s, dst->free_at[1]);
    dst->free_at[1] = enter + hold;
    break;
  default:
    enter = now + ph->head_s + ph->wire_s;
    break;
  }
  return enter + ph->port_s + ph->rest_s - now;
}
