/* hnm_xml.c -- see hnm_xml.h. */
#include "hnm_xml.h"

#include "hnm_input.h"
#include "hnm_units.h"

#include <stdio.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

void hnm_xml_free(hnm_xml_doc *doc)
{
  for (size_t i = 0; i < doc->n; i++) {
    hnm_xml_elem *e = &doc->e[i];
    for (size_t a = 0; a < e->nattr; a++) {
      free(e->keys[a]);
      free(e->vals[a]);
    }
    free(e->keys);
    free(e->vals);
    free(e->name);
  }
  free(doc->e);
  doc->e = NULL;
  doc->n = 0;
}

const char *hnm_xml_attr(const hnm_xml_elem *e, const char *key)
{
  for (size_t a = 0; a < e->nattr; a++)
    if (strcmp(e->keys[a], key) == 0)
      return e->vals[a];
  return NULL;
}

/* Bounds: the files read here are a few kilobytes (a <config> block,
 * platform-calibration's configuration). A bigger file, or a compressed
 * one (libxml2 would inflate a 97 KB gzip into 25 million elements), is
 * refused before parsing; the element count is bounded too. */
#define XML_MAX_BYTES (4L << 20)
#define XML_MAX_ELEMS 100000

static int add(hnm_xml_doc *doc, size_t *cap, xmlNodePtr n, int depth)
{
  if (doc->n >= XML_MAX_ELEMS || depth > 256)
    return -2;
  if (doc->n == *cap) {
    size_t nc = *cap ? 2 * *cap : 32;
    hnm_xml_elem *ne = realloc(doc->e, nc * sizeof *ne);
    if (ne == NULL)
      return -1;
    doc->e = ne;
    *cap = nc;
  }
  hnm_xml_elem *e = &doc->e[doc->n];
  memset(e, 0, sizeof *e);
  doc->n++;
  e->name = strdup((const char *)n->name);
  e->line = xmlGetLineNo(n);
  e->depth = depth;
  size_t na = 0;
  for (xmlAttrPtr a = n->properties; a != NULL; a = a->next)
    na++;
  e->keys = calloc(na ? na : 1, sizeof *e->keys);
  e->vals = calloc(na ? na : 1, sizeof *e->vals);
  if (e->name == NULL || e->keys == NULL || e->vals == NULL)
    return -1;
  for (xmlAttrPtr a = n->properties; a != NULL; a = a->next) {
    xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);
    e->keys[e->nattr] = strdup((const char *)a->name);
    e->vals[e->nattr] = strdup(v ? (const char *)v : "");
    xmlFree(v);
    if (e->keys[e->nattr] == NULL || e->vals[e->nattr] == NULL)
      return -1;
    e->nattr++;
  }
  for (xmlNodePtr c = n->children; c != NULL; c = c->next)
    if (c->type == XML_ELEMENT_NODE) {
      int rc = add(doc, cap, c, depth + 1);
      if (rc != 0)
        return rc;
    }
  return 0;
}

/* libxml2's first error, kept for the one-line message (nothing printed). */
struct xml__err {
  int set;
  long line;
  char msg[256];
};

/* libxml2 2.12 made the error a const pointer (GCC 14 and later refuse the
 * old signature): Debian 13 and sid have 2.12 and later, Debian 12 2.9. */
#if LIBXML_VERSION >= 21200
static void xml__structured(void *ctx, const xmlError *e)
#else
static void xml__structured(void *ctx, xmlErrorPtr e)
#endif
{
  struct xml__err *c = ctx;
  if (c->set || e == NULL || e->level < XML_ERR_ERROR)
    return;
  c->set = 1;
  c->line = e->line;
  snprintf(c->msg, sizeof c->msg, "%s", e->message ? e->message : "parse error");
  size_t l = strlen(c->msg);
  while (l > 0 && (c->msg[l - 1] == '\n' || c->msg[l - 1] == ' '))
    c->msg[--l] = '\0';
}

static void xml__silent(void *ctx, const char *fmt, ...)
{
  (void)ctx;
  (void)fmt;
}

int hnm_xml_read(const char *path, hnm_xml_doc *doc, char *err, size_t errlen)
{
  doc->e = NULL;
  doc->n = 0;
  char why[512];
  FILE *f = hnm_input_open(path, why, sizeof why);
  if (f == NULL) {
    hnm_errf(err, errlen, "%s: %s", path, why);
    return -1;
  }
  char *buf = malloc(XML_MAX_BYTES + 1);
  size_t len = buf != NULL ? fread(buf, 1, XML_MAX_BYTES + 1, f) : 0;
  int rerr = ferror(f);
  fclose(f);
  if (buf == NULL || rerr || len > XML_MAX_BYTES || len == 0 ||
      (len >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b)) {
    hnm_errf(err, errlen, "%s:1: %s", path,
             buf == NULL    ? "out of memory"
             : rerr         ? "read error"
             : len == 0     ? "empty file, not XML"
             : len > XML_MAX_BYTES ? "larger than 4 MiB: not a configuration file"
                                   : "a compressed file: give it uncompressed");
    free(buf);
    return -1;
  }
  struct xml__err cap;
  memset(&cap, 0, sizeof cap);
  xmlStructuredErrorFunc old_serror = xmlStructuredError;
  void *old_sctx = xmlStructuredErrorContext;
  xmlGenericErrorFunc old_gerror = xmlGenericError;
  void *old_gctx = xmlGenericErrorContext;
  xmlSetStructuredErrorFunc(&cap, xml__structured);
  xmlSetGenericErrorFunc(NULL, xml__silent);
  xmlDocPtr x = xmlReadMemory(buf, (int)len, path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  free(buf);
  xmlSetStructuredErrorFunc(old_sctx, old_serror);
  xmlSetGenericErrorFunc(old_gctx, old_gerror);
  if (x == NULL || cap.set) {
    hnm_errf(err, errlen, "%s:%ld: not well-formed XML: %s", path, cap.set && cap.line > 0 ? cap.line : 1L,
             cap.set ? cap.msg : "cannot parse");
    if (x != NULL)
      xmlFreeDoc(x);
    return -1;
  }
  size_t ecap = 0;
  xmlNodePtr root = xmlDocGetRootElement(x);
  int rc = root == NULL ? -1 : add(doc, &ecap, root, 0);
  if (rc != 0)
    hnm_errf(err, errlen, "%s: %s", path,
             root == NULL ? "no root element"
             : rc == -2   ? "more than 100000 elements, or nested deeper than 256: not a configuration file"
                          : "out of memory");
  xmlFreeDoc(x);
  return rc == 0 ? 0 : -1;
}
