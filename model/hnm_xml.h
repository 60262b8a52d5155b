/* hnm_xml.h -- a small XML file as a flat list of elements (libxml2 stays
 * in plugin/, docs/architecture.md): for the configuration files of other
 * tools that hnm-calibrate reads (SimGrid's <config> blocks,
 * platform-calibration's configuration). No DTD, no network, no entities.
 *
 * Lifecycle: hnm_xml_read() -> use -> hnm_xml_free(). */
#ifndef HNM_XML_H
#define HNM_XML_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hnm_xml_elem {
  char *name;
  long line;     /* in the file */
  int depth;     /* 0: the root element */
  size_t nattr;
  char **keys, **vals;
} hnm_xml_elem;

typedef struct hnm_xml_doc {
  hnm_xml_elem *e; /* in document order */
  size_t n;
} hnm_xml_doc;

/* 0, or -1 with err = "FILE:LINE: reason" (include/hnm/hnm_error.h). doc is always
 * freeable. */
int hnm_xml_read(const char *path, hnm_xml_doc *doc, char *err, size_t errlen);
void hnm_xml_free(hnm_xml_doc *doc);

/* The value of attribute key of e, or NULL. */
const char *hnm_xml_attr(const hnm_xml_elem *e, const char *key);

#ifdef __cplusplus
}
#endif

#endif /* HNM_XML_H */
