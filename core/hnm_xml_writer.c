/* hnm_xml_writer.c -- the XML writer (hnm_xml_writer.h). The states and the
 * indentation flag follow libxml2's xmlTextWriter (with indentation on), so
 * that the output is the same byte for byte. */
#include "hnm_xml_writer.h"
#include "hnm_error.h"

#include <stdlib.h>
#include <string.h>

#define XW_INDENT "  "

enum xw_state {
  XW_NAME, /* start tag open: attributes may follow */
  XW_TEXT  /* start tag closed: content follows */
};

struct xw_open {
  char *name;
  enum xw_state state;
};

struct hnm_xml_writer {
  FILE *f;
  struct xw_open *open; /* the stack of open elements, outermost first */
  size_t depth, cap;
  int doindent; /* the next end tag of an element with content is indented */
  int failed;
};

static void xw_puts(hnm_xml_writer *w, const char *s)
{
  if (fputs(s, w->f) == EOF)
    w->failed = 1;
}

/* The indentation of a line at nesting depth d (0: none). */
static void xw_indent(hnm_xml_writer *w, size_t d)
{
  for (size_t i = 0; i < d; i++)
    xw_puts(w, XW_INDENT);
}

/* Close the start tag of the innermost element if still open: what follows
 * is its content. NEWLINE: content on the next line. */
static void xw_close_start_tag(hnm_xml_writer *w, int newline)
{
  if (w->depth > 0 && w->open[w->depth - 1].state == XW_NAME) {
    xw_puts(w, newline ? ">\n" : ">");
    w->open[w->depth - 1].state = XW_TEXT;
  }
}

/* A character reference in upper-case hexadecimal, "&#xE9;". */
static void xw_hexref(hnm_xml_writer *w, unsigned long c)
{
  if (fprintf(w->f, "&#x%lX;", c) < 0)
    w->failed = 1;
}

static int xw_is_char(unsigned long c)
{
  return (c >= 0x80 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

/* An attribute value: & < > " escaped, TAB, LF and CR as references, and a
 * non-ASCII character (UTF-8) as its reference; a byte that starts no
 * character as its own reference, and a lone last byte as it is (libxml2's
 * rules for a document without an encoding). */
static void xw_attr_value(hnm_xml_writer *w, const unsigned char *s)
{
  while (*s != '\0') {
    const char *esc = *s == '\n' ? "&#10;" : *s == '\r' ? "&#13;" : *s == '\t' ? "&#9;" : *s == '"' ? "&quot;"
                      : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '&' ? "&amp;" : NULL;
    if (esc != NULL) {
      xw_puts(w, esc);
      s++;
      continue;
    }
    if (*s < 0x80 || s[1] == '\0') {
      if (fputc(*s, w->f) == EOF)
        w->failed = 1;
      s++;
      continue;
    }
    unsigned long c = 0;
    int len = 1;
    if (*s < 0xC0) {
      len = 1;
    } else if (*s < 0xE0) {
      c = ((unsigned long)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
      len = 2;
    } else if (*s < 0xF0 && s[2] != '\0') {
      c = ((unsigned long)(s[0] & 0x0F) << 12) | ((unsigned long)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
      len = 3;
    } else if (*s < 0xF8 && s[2] != '\0' && s[3] != '\0') {
      c = ((unsigned long)(s[0] & 0x07) << 18) | ((unsigned long)(s[1] & 0x3F) << 12) |
          ((unsigned long)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
      len = 4;
    }
    if (len == 1 || !xw_is_char(c)) {
      xw_hexref(w, *s);
      s++;
    } else {
      xw_hexref(w, c);
      s += len;
    }
  }
}

/* Text content: & < > " escaped, CR as a reference. */
static void xw_text(hnm_xml_writer *w, const char *s)
{
  for (; *s != '\0'; s++) {
    const char *esc = *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '&' ? "&amp;" : *s == '"' ? "&quot;"
                      : *s == '\r' ? "&#13;" : NULL;
    if (esc != NULL)
      xw_puts(w, esc);
    else if (fputc(*s, w->f) == EOF)
      w->failed = 1;
  }
}

static int xw_rc(const hnm_xml_writer *w)
{
  return w->failed ? -1 : 0;
}

hnm_xml_writer *hnm_xml_writer_new(FILE *file, int declaration)
{
  hnm_xml_writer *w = calloc(1, sizeof *w);
  if (w == NULL)
    return NULL;
  w->f = file;
  w->doindent = 1;
  if (declaration)
    xw_puts(w, "<?xml version=\"1.0\"?>\n");
  return w;
}

int hnm_xml_writer_raw(hnm_xml_writer *w, const char *text)
{
  xw_close_start_tag(w, 0);
  w->doindent = 0;
  xw_puts(w, text);
  return xw_rc(w);
}

int hnm_xml_writer_start(hnm_xml_writer *w, const char *element)
{
  xw_close_start_tag(w, 1);
  if (w->depth == w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 8;
    struct xw_open *o = realloc(w->open, cap * sizeof *o);
    if (o == NULL)
      return w->failed = 1, -1;
    w->open = o;
    w->cap = cap;
  }
  char *name = malloc(strlen(element) + 1);
  if (name == NULL)
    return w->failed = 1, -1;
  strcpy(name, element);
  w->open[w->depth].name = name;
  w->open[w->depth].state = XW_NAME;
  xw_indent(w, w->depth++);
  xw_puts(w, "<");
  xw_puts(w, element);
  return xw_rc(w);
}

int hnm_xml_writer_attr(hnm_xml_writer *w, const char *name, const char *value)
{
  if (w->depth == 0 || w->open[w->depth - 1].state != XW_NAME)
    return w->failed = 1, -1;
  xw_puts(w, " ");
  xw_puts(w, name);
  xw_puts(w, "=\"");
  xw_attr_value(w, (const unsigned char *)value);
  xw_puts(w, "\"");
  return xw_rc(w);
}

int hnm_xml_writer_text(hnm_xml_writer *w, const char *element, const char *text)
{
  if (hnm_xml_writer_start(w, element) != 0)
    return -1;
  xw_close_start_tag(w, 0);
  w->doindent = 0;
  xw_text(w, text);
  return hnm_xml_writer_end(w);
}

int hnm_xml_writer_comment(hnm_xml_writer *w, const char *text)
{
  /* XML forbids "--" in a comment and "-" before its end: refused, so that
   * the file stays well-formed. */
  size_t n = strlen(text);
  if (strstr(text, "--") != NULL || (n > 0 && text[n - 1] == '-'))
    return w->failed = 1, -1;
  xw_close_start_tag(w, 1);
  xw_indent(w, w->depth);
  xw_puts(w, "<!--");
  xw_puts(w, text);
  xw_puts(w, "-->\n");
  w->doindent = 0;
  return xw_rc(w);
}

int hnm_xml_writer_end(hnm_xml_writer *w)
{
  if (w->depth == 0)
    return w->failed = 1, -1;
  struct xw_open *o = &w->open[--w->depth];
  if (o->state == XW_NAME) {
    xw_puts(w, "/>\n");
  } else {
    if (w->doindent)
      xw_indent(w, w->depth);
    xw_puts(w, "</");
    xw_puts(w, o->name);
    xw_puts(w, ">\n");
  }
  w->doindent = 1;
  free(o->name);
  return xw_rc(w);
}

int hnm_xml_writer_finish(hnm_xml_writer *w)
{
  while (w->depth > 0)
    hnm_xml_writer_end(w);
  int rc = w->failed || fflush(w->f) != 0 || ferror(w->f) ? -1 : 0;
  free(w->open);
  free(w);
  return rc;
}

int hnm_xml_text_check(const char *text, char *err, size_t errlen)
{
  const unsigned char *s = (const unsigned char *)text;
  for (size_t i = 0; s[i] != '\0';) {
    unsigned long c = s[i];
    size_t len = c < 0x80 ? 1 : c >= 0xC2 && c < 0xE0 ? 2 : c >= 0xE0 && c < 0xF0 ? 3 : c >= 0xF0 && c < 0xF5 ? 4 : 0;
    if (len == 1) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
        return hnm_fail(err, errlen, "byte 0x%02lx at offset %zu is a control character", c, i);
      i++;
      continue;
    }
    size_t k = 1;
    c = len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
    for (; len > 0 && k < len; k++) {
      if ((s[i + k] & 0xC0) != 0x80)
        break;
      c = c << 6 | (s[i + k] & 0x3F);
    }
    /* Too short, an overlong form, beyond U+10FFFF, or not a character. */
    if (len == 0 || k < len || (len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
        (c >= 0xD800 && c <= 0xDFFF) || c == 0xFFFE || c == 0xFFFF)
      return hnm_fail(err, errlen, "byte 0x%02x at offset %zu is not UTF-8", s[i], i);
    i += len;
  }
  return 0;
}
