/* hnm_csv.h -- the one CSV dialect of hnm (RFC 4180 quoting).
 *
 * Fields are separated by commas; a field holding a comma, a double quote,
 * CR or LF is written between double quotes, with each double quote doubled.
 * Readers accept both quoted and bare fields. Lines end with "\n" (a "\r\n"
 * ending is read too). A field cannot span lines in hnm's files: every
 * writer here writes one record per line, and the readers read by line.
 */
#ifndef HNM_CSV_H
#define HNM_CSV_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Split LINE (no line ending; modified in place) into fields. The first MAX
 * are stored in FIELDS. Returns the number of fields in the line (which may
 * exceed MAX), or -1 when a quoted field is not closed or is followed by
 * something other than a comma. An empty line is one empty field. */
int hnm_csv_split(char *line, char **fields, int max);

/* Remove a trailing "\n", "\r\n" (and any run of them). */
void hnm_csv_chomp(char *line);

/* Write S as one field, quoted when needed. Returns 0, or -1 on a write error. */
int hnm_csv_put(FILE *f, const char *s);

/* Whether S would need quoting. */
int hnm_csv_needs_quotes(const char *s);

#ifdef __cplusplus
}
#endif

#endif /* HNM_CSV_H */
