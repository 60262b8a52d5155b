/* hnm_model_pack.c -- derived-datatype pack/unpack costs of a model (the
 * <pack> element, docs/model-format.md): names, checks, queries, writing and
 * --explain. The loader of the element is in hnm_model_load.c with the other
 * elements. */
#include "hnm_model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hnm_xml_writer.h"

#include "hnm_model_impl.h"

static const char *const pack__classes[HNM_PACK_CLASSES] = {"vector", "indexed", "subarray"};
static const char *const pack__styles[HNM_PACK_STYLES] = {"interpreted", "compiled", "manual"};

const char *hnm_pack_class_name(enum hnm_pack_class c)
{
  return (int)c >= 0 && c < HNM_PACK_CLASSES ? pack__classes[c] : "?";
}

const char *hnm_pack_style_name(int style)
{
  return style >= 0 && style < HNM_PACK_STYLES ? pack__styles[style] : "none";
}

int model__parse_pack_style(const char *v, int *style, char *reason, size_t len)
{
  for (int s = 0; s < HNM_PACK_STYLES; s++) {
    if (strcmp(v, pack__styles[s]) == 0) {
      *style = s;
      return 0;
    }
  }
  if (strcmp(v, "none") == 0) {
    *style = HNM_PACK_NONE;
    return 0;
  }
  hnm_errf(reason, len, "'%s' is not interpreted, compiled, manual or none", v);
  return -1;
}

/* The style in use must be given in full (the loader has checked each
 * value's range and that every present style has its three classes). */
int model__check_pack(const struct hnm_pack_model *p, const char **field, char *reason, size_t len)
{
  if (p->use != HNM_PACK_NONE && !p->present[p->use]) {
    *field = "use";
    hnm_errf(reason, len, "style '%s' has no <pack-cost> elements (give its three classes, or use=\"none\")",
             pack__styles[p->use]);
    return -1;
  }
  return 0;
}

const struct hnm_pack_model *hnm_model_pack(const hnm_model *m)
{
  return m->has_pack ? &m->pack : NULL;
}

int hnm_model_pack_style(const hnm_model *m)
{
  return m->has_pack ? m->pack.use : HNM_PACK_NONE;
}

/* The weight of a message's irregular runs: 0 up to the history capacity,
 * then 1 - history / period (half at twice the capacity, 0.9 at ten times):
 * the share of the lengths the predictor cannot have learnt. */
double hnm_pack_irregular_weight(double history, double period)
{
  return period > history && history > 0 ? 1.0 - history / period : 0.0;
}

double hnm_pack_time_of(const struct hnm_pack_cost *c, const struct hnm_pack_shape *s)
{
  if (c == NULL || s == NULL || !(s->blocks > 1))
    return 0.0;
  double t = c->c0 + c->per_block * s->blocks + c->per_byte * s->bytes;
  /* Each term is added only when given, so that a model without it gives
   * the time of the other terms bit for bit whatever the message is. */
  if (c->per_jump != 0)
    t += c->per_jump * s->jumps;
  if (c->per_element != 0 && s->elements > 1)
    t += c->per_element * (s->elements - 1);
  if (c->per_irregular != 0)
    t += c->per_irregular * s->blocks * hnm_pack_irregular_weight(c->history, s->period);
  return t;
}

double hnm_pack_time(const struct hnm_pack_cost *c, double blocks, double bytes, double jumps)
{
  struct hnm_pack_shape s = {blocks, bytes, jumps, 1, 0};
  return hnm_pack_time_of(c, &s);
}

double hnm_model_pack_time_of(const hnm_model *m, enum hnm_pack_class cls, enum hnm_pack_op op,
                              const struct hnm_pack_shape *s)
{
  if (!m->has_pack || m->pack.use == HNM_PACK_NONE || (int)cls < 0 || cls >= HNM_PACK_CLASSES || (int)op < 0 ||
      op >= HNM_PACK_OPS)
    return 0.0;
  return hnm_pack_time_of(&m->pack.cost[m->pack.use][cls][op], s);
}

double hnm_model_pack_time(const hnm_model *m, enum hnm_pack_class cls, enum hnm_pack_op op, double blocks,
                           double bytes, double jumps)
{
  struct hnm_pack_shape s = {blocks, bytes, jumps, 1, 0};
  return hnm_model_pack_time_of(m, cls, op, &s);
}

static int pack__num(hnm_xml_writer *w, const char *name, double v)
{
  char buf[64];
  snprintf(buf, sizeof buf, "%.17gs", v);
  return hnm_xml_writer_attr(w, name, buf);
}

int model__write_pack(hnm_xml_writer *w, const hnm_model *m)
{
  static const char *const attrs[HNM_PACK_OPS][3] = {{"pack-c0", "pack-per-block", "pack-per-byte"},
                                                     {"unpack-c0", "unpack-per-block", "unpack-per-byte"}};
  static const char *const optional[3][HNM_PACK_OPS] = {{"pack-per-jump", "unpack-per-jump"},
                                                        {"pack-per-element", "unpack-per-element"},
                                                        {"pack-per-irregular", "unpack-per-irregular"}};

  if (!m->has_pack)
    return 0;
  if (hnm_xml_writer_start(w, "pack") != 0 ||
      hnm_xml_writer_attr(w, "use", hnm_pack_style_name(m->pack.use)) != 0)
    return -1;
  for (int s = 0; s < HNM_PACK_STYLES; s++) {
    if (!m->pack.present[s])
      continue;
    for (int c = 0; c < HNM_PACK_CLASSES; c++) {
      if (hnm_xml_writer_start(w, "pack-cost") != 0 ||
          hnm_xml_writer_attr(w, "style", pack__styles[s]) != 0 ||
          hnm_xml_writer_attr(w, "class", pack__classes[c]) != 0)
        return -1;
      const struct hnm_pack_cost *k = m->pack.cost[s][c]; /* by op */
      for (int op = 0; op < HNM_PACK_OPS; op++)
        if (pack__num(w, attrs[op][0], k[op].c0) != 0 || pack__num(w, attrs[op][1], k[op].per_block) != 0 ||
            pack__num(w, attrs[op][2], k[op].per_byte) != 0)
          return -1;
      /* per-jump, per-element and per-irregular are optional (0 when
       * absent): written only when given, so that a model without them is
       * written as before; history only with a per-irregular time. */
      for (int t = 0; t < 3; t++)
        for (int op = 0; op < HNM_PACK_OPS; op++) {
          double v = t == 0 ? k[op].per_jump : t == 1 ? k[op].per_element : k[op].per_irregular;
          if (v != 0 && pack__num(w, optional[t][op], v) != 0)
            return -1;
        }
      const struct hnm_pack_cost *ki = k[HNM_PACK_OP_PACK].per_irregular != 0 ? &k[HNM_PACK_OP_PACK]
                                       : k[HNM_PACK_OP_UNPACK].per_irregular != 0 ? &k[HNM_PACK_OP_UNPACK]
                                                                                  : NULL;
      if (ki != NULL) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", ki->history);
        if (hnm_xml_writer_attr(w, "history", buf) != 0)
          return -1;
      }
      if (hnm_xml_writer_end(w) != 0)
        return -1;
    }
  }
  return hnm_xml_writer_end(w) != 0 ? -1 : 0;
}

void model__explain_pack(void *file, const hnm_model *m)
{
  FILE *f = file;

  if (!m->has_pack) {
    fprintf(f, "  pack: no pack costs (derived datatypes are packed for free, as SMPI does)\n");
    return;
  }
  fprintf(f, "  pack: style %s charged to MPI calls (T = c0 + blocks x per-block + bytes x per-byte + jumps x "
             "per-jump; 0 for contiguous data)\n", hnm_pack_style_name(m->pack.use));
  /* The formula's other terms are named only for a model that has them,
   * so that older models explain as before. */
  int extra_terms = 0;
  for (int s = 0; s < HNM_PACK_STYLES; s++)
    for (int c = 0; c < HNM_PACK_CLASSES && m->pack.present[s]; c++)
      for (int op = 0; op < HNM_PACK_OPS; op++)
        extra_terms |= m->pack.cost[s][c][op].per_element != 0 || m->pack.cost[s][c][op].per_irregular != 0;
  if (extra_terms)
    fprintf(f, "        + (elements - 1) x per-element + blocks x max(0, 1 - history / period) x per-irregular "
               "(period: runs of one repetition of irregular block lengths)\n");
  for (int s = 0; s < HNM_PACK_STYLES; s++) {
    if (!m->pack.present[s])
      continue;
    for (int c = 0; c < HNM_PACK_CLASSES; c++) {
      const struct hnm_pack_cost *p = &m->pack.cost[s][c][HNM_PACK_OP_PACK];
      const struct hnm_pack_cost *u = &m->pack.cost[s][c][HNM_PACK_OP_UNPACK];
      fprintf(f, "    %-11s %-8s pack %.6g s + %.6g s/block + %.6g s/B, unpack %.6g s + %.6g s/block + %.6g s/B",
              pack__styles[s], pack__classes[c], p->c0, p->per_block, p->per_byte, u->c0, u->per_block,
              u->per_byte);
      if (p->per_jump != 0 || u->per_jump != 0)
        fprintf(f, ", jump %.6g s pack, %.6g s unpack", p->per_jump, u->per_jump);
      if (p->per_element != 0 || u->per_element != 0)
        fprintf(f, ", element %.6g s pack, %.6g s unpack", p->per_element, u->per_element);
      if (p->per_irregular != 0 || u->per_irregular != 0)
        fprintf(f, ", irregular %.6g s pack, %.6g s unpack past a history of %.0f runs", p->per_irregular,
                u->per_irregular, p->per_irregular != 0 ? p->history : u->history);
      fputc('\n', f);
    }
  }
}
