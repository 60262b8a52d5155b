/* hnm_csv.c -- the CSV dialect of hnm (hnm_csv.h). */
#include "hnm_csv.h"

#include <string.h>

int hnm_csv_split(char *line, char **fields, int max)
{
  int n = 0;
  char *p = line, *w;
  for (;;) {
    w = p;
    if (n < max)
      fields[n] = w;
    n++;
    if (*p == '"') {
      p++;
      for (;;) {
        if (*p == '\0')
          return -1;
        if (*p == '"') {
          if (p[1] == '"') {
            *w++ = '"';
            p += 2;
            continue;
          }
          p++;
          break;
        }
        *w++ = *p++;
      }
      if (*p != ',' && *p != '\0')
        return -1;
    } else {
      while (*p != '\0' && *p != ',')
        *w++ = *p++;
    }
    if (*p == '\0') {
      *w = '\0';
      return n;
    }
    *w = '\0';
    p++;
  }
}

void hnm_csv_chomp(char *line)
{
  size_t n = strlen(line);
  while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
    line[--n] = '\0';
}

int hnm_csv_needs_quotes(const char *s)
{
  return strpbrk(s, ",\"\r\n") != NULL;
}

int hnm_csv_put(FILE *f, const char *s)
{
  if (!hnm_csv_needs_quotes(s))
    return fputs(s, f) < 0 ? -1 : 0;
  if (fputc('"', f) == EOF)
    return -1;
  for (const char *p = s; *p; p++) {
    if (*p == '"' && fputc('"', f) == EOF)
      return -1;
    if (fputc(*p, f) == EOF)
      return -1;
  }
  return fputc('"', f) == EOF ? -1 : 0;
}
