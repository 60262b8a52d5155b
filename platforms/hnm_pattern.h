/* hnm_pattern.h -- communication patterns for hnm-route: generated ones
 * (aggregation, disjoint, overlap, subset1, subset2) and pattern files.
 * Ranks in BG/Q's ABCDE order (see hnm_paths.h); sizes in bytes. */
#ifndef HNM_PATTERN_H
#define HNM_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One transfer: ranks and bytes. */
struct hnm_pair {
  uint32_t src, dst; /* ranks */
  double bytes;
};

struct hnm_pattern {
  size_t npairs;
  struct hnm_pair *pairs;
};

enum hnm_pattern_kind {
  HNM_PATTERN_AGGREGATION, /* subgroups of g consecutive ranks, all send to the group's middle rank */
  HNM_PATTERN_DISJOINT,    /* first m ranks -> n ranks at the end (disjoint sets) */
  HNM_PATTERN_OVERLAP,     /* first m ranks -> n ranks starting at m - overlap */
  HNM_PATTERN_SUBSET1,     /* first m ranks -> the last n ranks, a concentrated block (VI-D-1) */
  HNM_PATTERN_SUBSET2      /* first m ranks -> n ranks spread evenly over the partition (I/O aggregators) */
};

/* Parameters of a generated pattern; 0 means "the pattern's default"
 * (docs/multipath.md). */
struct hnm_pattern_params {
  enum hnm_pattern_kind kind;
  unsigned long sources, dests, overlap, group;
  double bytes; /* per pair */
};

int hnm_pattern_parse_kind(const char *s, enum hnm_pattern_kind *kind, char *err, size_t errlen);
const char *hnm_pattern_kind_name(enum hnm_pattern_kind kind);

/* Generate a pattern on p nodes. Pairs whose source is their destination
 * are left out. Returns 0 or -1 (err names the option at fault). */
int hnm_pattern_generate(const struct hnm_pattern_params *pp, unsigned long p, struct hnm_pattern *out, char *err,
                         size_t errlen);

/* Read "src dst bytes" lines ('#' comments and blank lines allowed; bytes
 * may carry a unit: 8MiB). Unknown ranks (>= p), negative or zero bytes,
 * src == dst and a pair given twice are refused: -1 with
 * "FILE:LINE: field: reason" in err. */
int hnm_pattern_read(FILE *f, const char *name, unsigned long p, struct hnm_pattern *out, char *err, size_t errlen);

void hnm_pattern_free(struct hnm_pattern *pt);

#ifdef __cplusplus
}
#endif

#endif /* HNM_PATTERN_H */
