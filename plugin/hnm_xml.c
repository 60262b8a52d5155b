/* hnm_xml.c -- see hnm_xml.h. */
#include "hnm_xml.h"

#include "hnm_units.h"

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

static int add(hnm_xml_doc *doc, size_t *cap, xmlNodePtr n, int depth)
{
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
    if (c->type == XML_ELEMENT_NODE && add(doc, cap, c, depth + 1) != 0)
      return -1;
  return 0;
}

int hnm_xml_read(const char *path, hnm_xml_doc *doc, char *err, size_t errcap)
{
  doc->e = NULL;
  doc->n = 0;
  xmlDocPtr x = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (x == NULL) {
    const xmlError *xe = xmlGetLastError();
    hnm_errf(err, errcap, "%s:%d: not well-formed XML%s%.200s", path, xe ? xe->line : 0,
             xe && xe->message ? ": " : "", xe && xe->message ? xe->message : "");
    size_t l = err ? strlen(err) : 0;
    while (l > 0 && (err[l - 1] == '\n' || err[l - 1] == ' '))
      err[--l] = '\0';
    return -1;
  }
  size_t cap = 0;
  xmlNodePtr root = xmlDocGetRootElement(x);
  int rc = root == NULL ? -1 : add(doc, &cap, root, 0);
  if (rc != 0)
    hnm_errf(err, errcap, "%s: %s", path, root == NULL ? "no root element" : "out of memory");
  xmlFreeDoc(x);
  return rc;
}
