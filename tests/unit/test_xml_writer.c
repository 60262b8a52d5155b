/* test_xml_writer.c -- core's XML writer (core/hnm_xml_writer.h) against
 * libxml2's xmlTextWriter with indentation on, the writer hnm used before:
 * the same random documents (nested elements, attributes, text elements,
 * comments, a raw DOCTYPE line; values with XML's special characters, TAB,
 * LF, CR, UTF-8 of 2 to 4 bytes, surrogates, stray bytes) written through
 * both must be the same bytes. Then the hand-checked layout of a small
 * document, and a write error (/dev/full) reported by finish.
 * Prints "N passed, M failed"; exits non-zero if anything failed. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "hnm_xml_writer.h"

#include <libxml/xmlwriter.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng = 88172645463325252ULL;
static unsigned next(unsigned n)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng % n);
}

/* Whether this libxml2 writes malformed UTF-8 and controls as U+FFFD
 * (Debian sid's 2.15 does; 2.9, which hnm's writer was checked against and
 * Debian 12 and 13 have, escapes or passes the bytes): then the random
 * documents keep to well-formed text, where every libxml2 agrees, and the
 * malformed bytes are left to the runs on 2.9. */
static int libxml_replaces_malformed(void)
{
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  xmlTextWriterPtr x = xmlNewTextWriter(xmlOutputBufferCreateFile(f, NULL));
  xmlTextWriterStartElement(x, BAD_CAST "a");
  xmlTextWriterWriteAttribute(x, BAD_CAST "v", BAD_CAST "\x01\xff");
  xmlTextWriterEndElement(x);
  xmlTextWriterFlush(x);
  xmlFreeTextWriter(x);
  fclose(f);
  int replaces = out != NULL && strstr(out, "FFFD") != NULL;
  free(out);
  return replaces;
}
static int well_formed_only;

/* A random value: pieces of plain text, XML specials, controls, UTF-8 and
 * malformed bytes (the last 8 pieces: not with well_formed_only). COMMENT:
 * none that would end or break a comment. */
static void value(char *buf, size_t len, int comment)
{
  static const char *const pieces[] = {"a", "Z9", " ", "x y", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "&amp;",
                                       "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9d\x84\x9e", "\xee\x80\x80", "]]>", "1.5e-06",
                                       "\xed\xa0\x80", "\xc3", "\x80", "\xff", "\xe2\x82", "\xf4\x90\x80\x80", "\x01", "\xef\xbf\xbe"};
  size_t npieces = sizeof pieces / sizeof *pieces - (well_formed_only ? 8 : 0);
  size_t n = 0, k = next(6);
  buf[0] = '\0';
  for (size_t i = 0; i < k; i++) {
    const char *p = pieces[next((unsigned)npieces)];
    if (comment && (p[0] == '-' || strchr(p, '-') != NULL))
      continue;
    if (n + strlen(p) + 1 >= len)
      break;
    strcpy(buf + n, p);
    n += strlen(p);
  }
  if (comment && n > 0 && buf[n - 1] == '-')
    buf[n - 1] = '\0';
}

static const char *const names[] = {"platform", "zone", "cluster", "prop", "segment", "hnm-model", "config", "l"};

/* One random document through both writers; 1 when the bytes agree. */
static int one_document(int declaration)
{
  char *ours = NULL, *theirs = NULL, v[256];
  size_t nours = 0, ntheirs = 0;
  FILE *fo = open_memstream(&ours, &nours), *ft = open_memstream(&theirs, &ntheirs);
  hnm_xml_writer *w = hnm_xml_writer_new(fo, declaration);
  xmlTextWriterPtr x = xmlNewTextWriter(xmlOutputBufferCreateFile(ft, NULL));
  xmlTextWriterSetIndent(x, 1);
  xmlTextWriterSetIndentString(x, BAD_CAST "  ");
  if (declaration)
    xmlTextWriterStartDocument(x, "1.0", NULL, NULL);
  int depth = 0, in_tag = 0, ops = 5 + (int)next(40);
  if (next(2)) {
    hnm_xml_writer_raw(w, "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
    xmlTextWriterWriteRaw(x, BAD_CAST "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
  }
  for (int i = 0; i < ops; i++) {
    unsigned op = next(10);
    const char *name = names[next(sizeof names / sizeof *names)];
    if (op < 3 && depth < 6) {
      hnm_xml_writer_start(w, name);
      xmlTextWriterStartElement(x, BAD_CAST name);
      depth++, in_tag = 1;
    } else if (op < 6 && in_tag) {
      value(v, sizeof v, 0);
      hnm_xml_writer_attr(w, name, v);
      xmlTextWriterWriteAttribute(x, BAD_CAST name, BAD_CAST v);
    } else if (op == 6 && depth > 0) {
      value(v, sizeof v, 0);
      hnm_xml_writer_text(w, name, v);
      xmlTextWriterWriteElement(x, BAD_CAST name, BAD_CAST v);
      in_tag = 0;
    } else if (op == 7 && depth > 0) {
      value(v, sizeof v, 1);
      hnm_xml_writer_comment(w, v);
      xmlTextWriterWriteComment(x, BAD_CAST v);
      in_tag = 0;
    } else if (depth > 0) {
      hnm_xml_writer_end(w);
      xmlTextWriterEndElement(x);
      depth--, in_tag = 0;
    }
  }
  int rc = hnm_xml_writer_finish(w);
  xmlTextWriterEndDocument(x);
  xmlTextWriterFlush(x);
  xmlFreeTextWriter(x);
  fclose(fo);
  fclose(ft);
  int same = rc == 0 && nours == ntheirs && memcmp(ours, theirs, nours) == 0;
  if (!same)
    fprintf(stderr, "--- hnm_xml_writer (rc %d):\n%s--- xmlTextWriter:\n%s", rc, ours, theirs);
  free(ours);
  free(theirs);
  return same;
}

static void quiet(void *ctx, const char *fmt, ...)
{
  (void)ctx, (void)fmt;
}

int main(void)
{
  xmlSetGenericErrorFunc(NULL, quiet); /* libxml2 reports malformed UTF-8 */
  well_formed_only = libxml_replaces_malformed();
  if (well_formed_only)
    fprintf(stderr, "note: libxml2 %d writes malformed UTF-8 as U+FFFD: well-formed text only\n", LIBXML_VERSION);
  int agree = 0, n = 3000;
  for (int i = 0; i < n; i++)
    agree += one_document(i % 2);
  CHECK(agree == n);
  if (agree != n)
    fprintf(stderr, "  %d of %d documents differ\n", n - agree, n);

  /* The layout, by hand. */
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  hnm_xml_writer *w = hnm_xml_writer_new(f, 1);
  CHECK(hnm_xml_writer_raw(w, "<!DOCTYPE x>\n") == 0);
  CHECK(hnm_xml_writer_start(w, "a") == 0 && hnm_xml_writer_attr(w, "v", "1<2 & \"3\"\n\xc3\xa9") == 0);
  CHECK(hnm_xml_writer_start(w, "b") == 0 && hnm_xml_writer_end(w) == 0);
  CHECK(hnm_xml_writer_text(w, "c", "x<y\r") == 0);
  CHECK(hnm_xml_writer_start(w, "d") == 0 && hnm_xml_writer_comment(w, " note ") == 0);
  CHECK(hnm_xml_writer_attr(w, "late", "x") == -1); /* after content: refused, and it sticks */
  CHECK(hnm_xml_writer_finish(w) == -1);
  fclose(f);
  const char *want = "<?xml version=\"1.0\"?>\n<!DOCTYPE x>\n<a v=\"1&lt;2 &amp; &quot;3&quot;&#10;&#xE9;\">\n"
                     "  <b/>\n  <c>x&lt;y&#13;</c>\n  <d>\n    <!-- note -->\n</d>\n</a>\n";
  CHECK(out != NULL && strcmp(out, want) == 0);
  if (out == NULL || strcmp(out, want) != 0)
    fprintf(stderr, "got:\n%swant:\n%s", out ? out : "", want);
  free(out);

  /* hnm_xml_text_check(): UTF-8 text XML allows, or the first bad byte
   * and its offset (by hand: U+00E9 is C3 A9, U+65E5 E6 97 A5, U+1F600
   * F0 9F 98 80; C0 AF is "/" overlong, ED A0 80 the surrogate U+D800,
   * EF BF BE U+FFFE, F4 90 80 80 U+110000). */
  static const struct {
    const char *text, *want;
  } texts[] = {
    {"caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80 a\tb\n", ""},
    {"caf\xc3", "byte 0xc3 at offset 3 is not UTF-8"},
    {"a\xff\xfe", "byte 0xff at offset 1 is not UTF-8"},
    {"\xc0\xaf", "byte 0xc0 at offset 0 is not UTF-8"},
    {"xy\xed\xa0\x80", "byte 0xed at offset 2 is not UTF-8"},
    {"\xef\xbf\xbe", "byte 0xef at offset 0 is not UTF-8"},
    {"\xf4\x90\x80\x80", "byte 0xf4 at offset 0 is not UTF-8"},
    {"\xe0\x80\xaf", "byte 0xe0 at offset 0 is not UTF-8"},
    {"\xc3\xa9\xa9", "byte 0xa9 at offset 2 is not UTF-8"},
    {"a\x01", "byte 0x01 at offset 1 is a control character"},
  };
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    char terr[128] = "";
    int rc = hnm_xml_text_check(texts[i].text, terr, sizeof terr);
    CHECK_EQ(rc, *texts[i].want ? -1 : 0);
    CHECK_STREQ(terr, texts[i].want);
  }

  /* A comment XML does not allow: refused, nothing written, finish fails. */
  const char *bad[] = {"a -- b", "x-", "--", "-"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    out = NULL, len = 0;
    f = open_memstream(&out, &len);
    w = hnm_xml_writer_new(f, 0);
    CHECK(hnm_xml_writer_comment(w, bad[i]) == -1);
    CHECK(hnm_xml_writer_finish(w) == -1);
    fclose(f);
    CHECK(len == 0);
    free(out);
  }

  /* A write error is reported by finish. */
  f = fopen("/dev/full", "w");
  if (f != NULL) {
    w = hnm_xml_writer_new(f, 1);
    hnm_xml_writer_start(w, "a");
    hnm_xml_writer_comment(w, "x");
    CHECK(hnm_xml_writer_finish(w) == -1);
    fclose(f);
  }
  return check_finish();
}
