/* hnm_platform_values.c -- see hnm_platform_values.h. */
#define _GNU_SOURCE /* memrchr */
#include "hnm_platform_values.h"

#include "hnm_error.h"
#include "hnm_input.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Attributes holding quantities (comma-separated lists for pstates). */
static const char *const values__quantities[] = {"bw",           "bandwidth", "lat",    "latency", "speed",
                                                 "loopback_bw",  "loopback_lat", "bb_bw", "bb_lat",
                                                 "limiter_link", "bw_in",     "bw_out", NULL};

/* What the unit U (ULEN bytes) multiplies its number by, as SimGrid reads
 * it (1 for a unit this check does not know: SimGrid judges those). */
static double values__unit_scale(int is_lat, const char *u, size_t ulen)
{
  static const struct {
    const char *unit;
    double scale;
  } times[] = {{"w", 604800}, {"d", 86400}, {"h", 3600}, {"m", 60}, {"s", 1},
               {"ms", 1e-3},  {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};
  if (is_lat) {
    for (size_t i = 0; i < sizeof times / sizeof *times; i++)
      if (strlen(times[i].unit) == ulen && strncmp(u, times[i].unit, ulen) == 0)
        return times[i].scale;
    return 1;
  }
  /* Bandwidths (Bps, bps) and speeds (f): a decimal or binary prefix. */
  static const char prefixes[] = "kMGTPEZY";
  double scale = 1;
  const char *p = ulen > 0 ? strchr(prefixes, u[0]) : NULL;
  if (p != NULL && u[0] != '\0') {
    int n = (int)(p - prefixes) + 1;
    int binary = ulen > 1 && u[1] == 'i';
    for (int i = 0; i < n; i++)
      scale *= binary ? 1024.0 : 1000.0;
  }
  if (ulen >= 3 && strncmp(u + ulen - 3, "bps", 3) == 0)
    scale /= 8;
  return scale;
}

/* NULL when V (LEN bytes) is a list of finite numbers (> 0, or >= 0 for a
 * latency) each followed by its unit, else the reason. */
static const char *values__quantity_bad(const char *attr, const char *v, size_t len)
{
  int is_lat = strstr(attr, "lat") != NULL;
  const char *p = v, *stop = v + len;
  for (;;) {
    const char *j = p;
    while (j < stop && *j != ',')
      j++;
    char num[64];
    size_t n = (size_t)(j - p) < sizeof num - 1 ? (size_t)(j - p) : sizeof num - 1;
    memcpy(num, p, n);
    num[n] = '\0';
    char *end;
    errno = 0;
    double x = strtod(num, &end);
    if (end != num) {
      if (x != x || x - x != 0)
        return is_lat ? "is not a finite latency >= 0" : "is not a finite value > 0";
      /* The value SimGrid makes of it, the unit applied: 1e300Gf is inf. */
      double v = x * values__unit_scale(is_lat, end, strlen(end));
      if (errno == ERANGE || v - v != 0 || (x != 0 && fabs(v) < DBL_MIN))
        return "is out of the range of a double";
      if (x < 0 || (!is_lat && x == 0))
        return is_lat ? "is not a finite latency >= 0" : "is not a finite value > 0";
    }
    if (j >= stop)
      return NULL;
    p = j + 1;
  }
}

/* A whole number of V..E (digits only, at most INT_MAX) into *out; the
 * end of it. NULL when there is none. */
static const char *values__int(const char *v, const char *e, long *out)
{
  long x = 0;
  const char *p = v;
  while (p < e && *p >= '0' && *p <= '9') {
    x = x * 10 + (*p - '0');
    if (x > INT_MAX)
      return NULL;
    p++;
  }
  *out = x;
  return p == v ? NULL : p;
}

/* NULL when V is a radical: N or N-M items, comma-separated, N <= M. */
static const char *values__radical_bad(const char *v, size_t len)
{
  const char *p = v, *stop = v + len;
  for (;;) {
    const char *j = memchr(p, ',', (size_t)(stop - p));
    if (j == NULL)
      j = stop;
    long a, b;
    const char *q = values__int(p, j, &a);
    if (q == NULL)
      return "is not a list of N or N-M (whole numbers, comma-separated)";
    b = a;
    if (q < j && (*q != '-' || (q = values__int(q + 1, j, &b)) == NULL || q != j))
      return "is not a list of N or N-M (whole numbers, comma-separated)";
    if (b < a)
      return "has an N-M with M below N";
    if (j >= stop)
      return NULL;
    p = j + 1;
  }
}

/* NULL when V is a platform version SimGrid 3.32 reads (4 to 4.1). */
static const char *values__version_bad(const char *v, size_t len)
{
  char num[32];
  if (len == 0 || len >= sizeof num)
    return "is not a platform version SimGrid 3.32 reads (4 to 4.1)";
  memcpy(num, v, len);
  num[len] = '\0';
  char *end;
  double x = strtod(num, &end);
  if (*end != '\0' || !(x >= 4 && x <= 4.1) || strspn(num, "0123456789.") != len)
    return "is not a platform version SimGrid 3.32 reads (4 to 4.1)";
  return NULL;
}

/* At buf[i] (after a blank), an attribute NAME="VALUE" of interest: its
 * reason when bad (NULL: fine or not ours). *in_platform: inside the
 * <platform ...> start tag. */
static const char *values__attr_bad(const char *buf, size_t i, size_t upto, int in_platform, const char **name,
                                    const char **value, size_t *vlen)
{
  static const char *const others[] = {"radical", "version", NULL};
  for (int set = 0; set < 2; set++) {
    const char *const *names = set == 0 ? values__quantities : others;
    for (int a = 0; names[a] != NULL; a++) {
      size_t al = strlen(names[a]);
      if (i + al + 2 > upto || strncmp(buf + i, names[a], al) != 0 || buf[i + al] != '=' ||
          (buf[i + al + 1] != '"' && buf[i + al + 1] != '\''))
        continue;
      char q = buf[i + al + 1];
      const char *v = buf + i + al + 2, *e = memchr(v, q, upto - (size_t)(v - buf));
      if (e == NULL)
        return NULL;
      *name = names[a];
      *value = v;
      *vlen = (size_t)(e - v);
      if (set == 0)
        return values__quantity_bad(names[a], v, *vlen);
      if (strcmp(names[a], "radical") == 0)
        return values__radical_bad(v, *vlen);
      return in_platform ? values__version_bad(v, *vlen) : NULL;
    }
  }
  return NULL;
}

int hnm_platform_values_check(const char *platform, char *err, size_t errlen)
{
  char why[512];
  FILE *f = hnm_input_open(platform, why, sizeof why);
  if (f == NULL) {
    hnm_errf(err, errlen, "platform file '%s': %s", platform, why);
    return -1;
  }
  char buf[65536 + 4096];
  size_t have = 0;
  long line = 1;
  int rc = 0, in_platform = 0;
  for (;;) {
    size_t got = fread(buf + have, 1, sizeof buf - 1 - have, f);
    size_t len = have + got;
    buf[len] = '\0';
    int last = got == 0 || feof(f);
    if (line == 1 && have == 0 && len >= 4 && memcmp(buf, "\177ELF", 4) == 0)
      break; /* a platform library (.so): SimGrid checks what it builds */
    /* Scan up to the last newline (all when at the end). */
    size_t upto = len;
    if (!last) {
      char *nl = memrchr(buf, '\n', len);
      upto = nl != NULL ? (size_t)(nl - buf) + 1 : len;
    }
    for (size_t i = 0; i < upto && rc == 0; i++) {
      if (buf[i] == '\n') {
        line++;
        continue;
      }
      if (buf[i] == '\0') {
        hnm_errf(err, errlen, "%s:%ld: NUL byte: not an XML platform", platform, line);
        rc = -1;
        break;
      }
      if (buf[i] == '<')
        in_platform = strncmp(buf + i, "<platform", 9) == 0 && i + 9 < upto &&
                      strchr(" \t\r\n>", buf[i + 9]) != NULL;
      else if (buf[i] == '>')
        in_platform = 0;
      if (i > 0 && (buf[i - 1] == ' ' || buf[i - 1] == '\t' || buf[i - 1] == '\n' || buf[i - 1] == '\r')) {
        const char *name, *v, *reason;
        size_t vl;
        if ((reason = values__attr_bad(buf, i, upto, in_platform, &name, &v, &vl)) != NULL) {
          hnm_errf(err, errlen, "%s:%ld: %s: '%.*s' %s", platform, line, name, (int)(vl < 60 ? vl : 60), v,
                   reason);
          rc = -1;
        }
      }
    }
    if (rc != 0 || last)
      break;
    memmove(buf, buf + upto, len - upto);
    have = len - upto;
    if (have > 4096) /* a line longer than 4 KiB: its tail is not kept */
      have = 0;
  }
  fclose(f);
  return rc;
}

/* Lines FIRST..LAST of PLATFORM, each at most 4 KiB, into lines[]; how many. */
#define VALUES__WINDOW 32
static int values__lines(const char *platform, long first, long last, char lines[][4096])
{
  char why[256], *l = NULL;
  size_t lcap = 0;
  long ln = 0, len;
  int n = 0;
  FILE *f = hnm_input_open(platform, why, sizeof why);
  if (f == NULL)
    return 0;
  while (ln < last && ((len = hnm_input_getline(&l, &lcap, f, HNM_INPUT_MAX_LINE)) >= 0 || len == -2))
    if (++ln >= first)
      snprintf(lines[n++], 4096, "%s", len >= 0 ? l : "");
  free(l);
  fclose(f);
  return n;
}

void hnm_platform_values_explain(const char *platform, const char *msg, char *out, size_t outlen)
{
  snprintf(out, outlen, "%s", msg);
  const char *at = strstr(msg, "Parse error at ");
  if (at == NULL)
    return;
  at += 15;
  /* FILE:LINE: REASON, FILE possibly holding colons: the first ":N: ". */
  const char *p = NULL, *file_end = NULL;
  long line = 0;
  for (const char *c = strchr(at, ':'); c != NULL && p == NULL; c = strchr(c + 1, ':')) {
    char *end;
    long n = strtol(c + 1, &end, 10);
    if (end > c + 1 && end[0] == ':' && end[1] == ' ')
      line = n, p = end + 2, file_end = c;
  }
  if (p == NULL || line <= 0)
    return;
  /* SimGrid names the line where the element ends: its attributes may be
   * on the lines before. */
  static char lines[VALUES__WINDOW][4096];
  long first = line > VALUES__WINDOW - 1 ? line - (VALUES__WINDOW - 1) : 1;
  int nl = values__lines(platform, first, line, lines);
  /* The reason's words (split at blanks and colons) against the values of
   * the attributes, nearest line first: an exact value, then a value that
   * is a number followed by the word (its unit). */
  for (int pass = 0; pass < 2; pass++)
    for (int li = nl - 1; li >= 0; li--) {
      const char *text = lines[li];
      for (const char *w = p; *w;) {
        size_t wl = strcspn(w, " :");
        for (const char *a = wl ? strstr(text, "=\"") : NULL; a != NULL; a = strstr(a + 2, "=\"")) {
          const char *v = a + 2, *e = strchr(v, '"');
          if (e == NULL)
            break;
          size_t vl = (size_t)(e - v);
          int hit = pass == 0 ? vl == wl && strncmp(v, w, wl) == 0 : vl > wl && strncmp(e - wl, w, wl) == 0;
          for (size_t i = 0; hit && pass == 1 && i < vl - wl; i++)
            hit = strchr("0123456789.eE+-", v[i]) != NULL;
          if (hit) {
            const char *n = a;
            while (n > text && strchr(" \t<", n[-1]) == NULL)
              n--;
            snprintf(out, outlen, "%.*s:%ld: %.*s: '%.*s': %s", (int)(file_end - at), at, first + li,
                     (int)(a - n), n, (int)(vl < 60 ? vl : 60), v, p);
            return;
          }
          a = e - 1;
        }
        w += wl;
        while (*w == ' ' || *w == ':')
          w++;
      }
    }
}
