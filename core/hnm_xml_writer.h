/* hnm_xml_writer.h -- the one XML writer of hnm: model files, platform
 * files, SimGrid <config> blocks.
 *
 * Streams to a FILE as it is called (memory: the open elements), escapes
 * what it writes, and indents by two spaces, element by element. Plain C:
 * no libxml2, so that every part may write XML (libxml2 stays a reader, in
 * the model library). The layout is libxml2's xmlTextWriter with indentation
 * on, byte for byte (tests/unit/test_xml_writer.c writes the same documents
 * through both and compares), so that files written before and after
 * libxml2 left the writers are the same:
 *   - an element's start tag on a line of its own, indented by its depth;
 *     an element without content ends with "/>"; one holding only text
 *     (hnm_xml_writer_text()) is written on one line;
 *   - a comment on a line of its own, indented, its text as given; a text
 *     holding "--" or ending in "-" is refused (not well-formed XML); after
 *     a comment, the end tag of the element holding it is not indented
 *     (libxml2's rule);
 *   - attribute values escape & < > " and write TAB, LF, CR and non-ASCII
 *     characters as character references (&#9; &#10; &#13; &#xE9;); text
 *     escapes & < > " and CR.
 * Names are written as given: the callers' names are fixed words.
 *
 * Lifecycle: hnm_xml_writer_new() -> start/attr/text/comment/end ... ->
 * hnm_xml_writer_finish() (closes every open element, flushes, frees). Every
 * call returns 0, or -1 after a write error or misuse (an attribute outside a
 * start tag); the first failure sticks, finish reports it and still frees.
 */
#ifndef HNM_XML_WRITER_H
#define HNM_XML_WRITER_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hnm_xml_writer hnm_xml_writer;

/* Write to FILE (flushed by finish, not closed). DECLARATION: begin with
 * <?xml version="1.0"?>; 0 for a fragment. NULL if out of memory. */
hnm_xml_writer *hnm_xml_writer_new(FILE *file, int declaration);

/* Text written as it is, outside any element (a DOCTYPE line). */
int hnm_xml_writer_raw(hnm_xml_writer *w, const char *text);

int hnm_xml_writer_start(hnm_xml_writer *w, const char *element);
/* An attribute of the element just started (before anything inside it). */
int hnm_xml_writer_attr(hnm_xml_writer *w, const char *name, const char *value);
/* <element>text</element>, on one line. */
int hnm_xml_writer_text(hnm_xml_writer *w, const char *element, const char *text);
int hnm_xml_writer_comment(hnm_xml_writer *w, const char *text);
int hnm_xml_writer_end(hnm_xml_writer *w);

/* Close every open element, flush FILE; free W. 0, or -1 if anything failed. */
int hnm_xml_writer_finish(hnm_xml_writer *w);

/* Whether S, a value the user gave (a model name), is text an XML file can
 * hold as it means it: UTF-8, shortest form, of characters XML allows
 * (no control character but TAB, LF, CR; no surrogate, U+FFFE, U+FFFF).
 * The writer passes other bytes through as libxml2 does (a lone last byte,
 * a reference per stray byte), which either breaks the file or changes the
 * value: a caller refuses such a value first. 0, or -1 with "byte 0xXX at
 * offset N is not UTF-8" (or "... is a control character") in err. */
int hnm_xml_text_check(const char *s, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* HNM_XML_WRITER_H */
