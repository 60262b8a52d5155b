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
  snprintf(reason, len, "'%s' is not interpreted, compiled, manual or none", v);
  return -1;
}

/* The style in use must be given in full (the loader has checked each
 * value's range and that every present style has its three classes). */
int model__check_pack(const struct hnm_pack_model *p, const char **field, char *reason, size_t len)
{
  if (p->use != HNM_PACK_NONE && !p->present[p->use]) {
    *field = "use";
    snprintf(reason, len, "style '%s' has no <pack-cost> elements (give its three classes, or use=\"none\")",
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

double hnm_pack_time(const struct hnm_pack_cost *c, double blocks, double bytes, double jumps)
{
  if (c == NULL || !(blocks > 1))
    return 0.0;
  double t = c->c0 + c->per_block * blocks + c->per_byte * bytes;
  /* Added only when given, so that a model without per-jump times gives
   * the three-term time bit for bit whatever JUMPS is. */
  return c->per_jump != 0 ? t + c->per_jump * jumps : t;
}

double hnm_model_pack_time(const hnm_model *m, enum hnm_pack_class cls, enum hnm_pack_op op, double blocks,
                           double bytes, double jumps)
{
  if (!m->has_pack || m->pack.use == HNM_PACK_NONE || (int)cls < 0 || cls >= HNM_PACK_CLASSES || (int)op < 0 ||
      op >= HNM_PACK_OPS)
    return 0.0;
  return hnm_pack_time(&m->pack.cost[m->pack.use][cls][op], blocks, bytes, jumps);
}

static int pack__num(hnm_xml_writer *w, const char *name, double v)
{
  char buf[64];
  snprintf(buf, sizeof buf, "%.17gs", v);
  return hnm_xml_writer_attr(w, name, buf);
}

int model__write_pack(hnm_xml_writer *w, const hnm_model *m)
{
  static const char *const attrs[HNM_PACK_OPS][4] = {
    {"pack-c0", "pack-per-block", "pack-per-byte", "pack-per-jump"},
    {"unpack-c0", "unpack-per-block", "unpack-per-byte", "unpack-per-jump"}};

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
      for (int op = 0; op < HNM_PACK_OPS; op++) {
        const struct hnm_pack_cost *k = &m->pack.cost[s][c][op];
        if (pack__num(w, attrs[op][0], k->c0) != 0 || pack__num(w, attrs[op][1], k->per_block) != 0 ||
            pack__num(w, attrs[op][2], k->per_byte) != 0)
          return -1;
      }
      /* per-jump is optional (0 when absent): written only when given, so
       * that a model without it is written as before. */
      for (int op = 0; op < HNM_PACK_OPS; op++) {
        const struct hnm_pack_cost *k = &m->pack.cost[s][c][op];
        if (k->per_jump != 0 && pack__num(w, attrs[op][3], k->per_jump) != 0)
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
      fputc('\n', f);
    }
  }
}
