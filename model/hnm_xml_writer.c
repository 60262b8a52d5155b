/* hnm_xml_writer.c -- small XML output through xmlTextWriter (hnm_xml_writer.h). */
#include "hnm_xml_writer.h"

#include <stdlib.h>

#include <libxml/xmlwriter.h>

struct hnm_xml_writer {
  xmlTextWriterPtr w;
  FILE *file;
  int failed;
};

/* libxml2 prints its I/O errors ("I/O error : No space left on device")
 * on stderr by itself; the writer's callers report them once, from the
 * return codes and the stream's error flag. */
static void writer__silent(void *ctx, const char *fmt, ...)
{
  (void)ctx;
  (void)fmt;
}

static void writer__silent_structured(void *ctx, xmlErrorPtr e)
{
  (void)ctx;
  (void)e;
}

void hnm_xml_writer_quiet(void)
{
  xmlSetGenericErrorFunc(NULL, writer__silent);
  xmlSetStructuredErrorFunc(NULL, writer__silent_structured);
}

hnm_xml_writer *hnm_xml_writer_new(FILE *file, int declaration)
{
  hnm_xml_writer_quiet();
  hnm_xml_writer *x = calloc(1, sizeof *x);
  xmlOutputBufferPtr buf = x != NULL ? xmlOutputBufferCreateFile(file, NULL) : NULL;
  if (buf == NULL) {
    free(x);
    return NULL;
  }
  x->w = xmlNewTextWriter(buf); /* owns buf from here on */
  if (x->w == NULL) {
    xmlOutputBufferClose(buf);
    free(x);
    return NULL;
  }
  x->file = file;
  if (xmlTextWriterSetIndent(x->w, 1) < 0 || xmlTextWriterSetIndentString(x->w, BAD_CAST "  ") < 0 ||
      (declaration && xmlTextWriterStartDocument(x->w, "1.0", NULL, NULL) < 0))
    x->failed = 1;
  return x;
}

static int xml__rc(hnm_xml_writer *x, int rc)
{
  if (rc < 0)
    x->failed = 1;
  return rc < 0 ? -1 : 0;
}

int hnm_xml_writer_start(hnm_xml_writer *x, const char *element)
{
  return xml__rc(x, xmlTextWriterStartElement(x->w, BAD_CAST element));
}

int hnm_xml_writer_attr(hnm_xml_writer *x, const char *name, const char *value)
{
  return xml__rc(x, xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value));
}

int hnm_xml_writer_comment(hnm_xml_writer *x, const char *text)
{
  return xml__rc(x, xmlTextWriterWriteComment(x->w, BAD_CAST text));
}

int hnm_xml_writer_end(hnm_xml_writer *x)
{
  return xml__rc(x, xmlTextWriterEndElement(x->w));
}

int hnm_xml_writer_finish(hnm_xml_writer *x)
{
  /* EndDocument closes what is open and ends the last line. */
  if (xmlTextWriterEndDocument(x->w) < 0 || xmlTextWriterFlush(x->w) < 0)
    x->failed = 1;
  xmlFreeTextWriter(x->w);
  int rc = x->failed || fflush(x->file) != 0 || ferror(x->file) ? -1 : 0;
  free(x);
  return rc;
}
