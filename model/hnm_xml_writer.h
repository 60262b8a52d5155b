/* hnm_xml_writer.h -- writing a small XML file or fragment through
 * libxml2's xmlTextWriter (escaping and encoding are libxml2's; libxml2 stays
 * in plugin/, docs/architecture.md), for the parts that may not link libxml2
 * (calibration/: SimGrid <config> blocks). Indented by two spaces.
 *
 * Lifecycle: hnm_xml_writer_new() -> start/attr/comment/end ... ->
 * hnm_xml_writer_finish() (closes every open element, flushes, frees). Every
 * call returns 0, or -1 (a write error; finish still frees). */
#ifndef HNM_XML_WRITER_H
#define HNM_XML_WRITER_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hnm_xml_writer hnm_xml_writer;

/* Keep libxml2 from printing its own I/O errors on stderr (the callers
 * report a failed write once, from return codes and ferror()). */
void hnm_xml_writer_quiet(void);

/* Write to FILE (not closed). DECLARATION: begin with <?xml version="1.0"?>;
 * 0 for a fragment. NULL if out of memory. */
hnm_xml_writer *hnm_xml_writer_new(FILE *file, int declaration);
int hnm_xml_writer_start(hnm_xml_writer *w, const char *element);
int hnm_xml_writer_attr(hnm_xml_writer *w, const char *name, const char *value);
int hnm_xml_writer_comment(hnm_xml_writer *w, const char *text);
int hnm_xml_writer_end(hnm_xml_writer *w);
int hnm_xml_writer_finish(hnm_xml_writer *w);

#ifdef __cplusplus
}
#endif

#endif /* HNM_XML_WRITER_H */
