/* hnm_model_set.h -- model sets: a central model and N resampled members.
 *
 * A model set is a directory, by convention NAME.set/, holding
 *   central.xml                  the central fit (an ordinary model file)
 *   member-001.xml ... member-N.xml
 *                                N >= 1 complete model files, numbered 1..N
 *                                without gaps, zero-padded to at least 3
 *                                digits (member-1000.xml follows member-999.xml)
 * Other files in the directory are ignored (a fit report, a README), except
 * names that start with "member-" and end in ".xml" but are not a member's.
 * hnm-calibrate fit --bootstrap N writes one; hnm-run and hnm-compare run a
 * program under every model of a set and report the central value with the
 * band of the members (docs/model-format.md, "Model sets").
 *
 * A --model specification names a set by its directory (a bare NAME.set not
 * found in the current directory is looked up beside the bundled models:
 * graphene.set), optionally followed
 * by the overrides of hnm_model_parse_spec() (NAME.set:limiter=off): they
 * apply to every model of the set.
 *
 * Lifecycle: hnm_model_set_open() -> use -> hnm_model_set_free().
 */
#ifndef HNM_MODEL_SET_H
#define HNM_MODEL_SET_H

#include <stddef.h>

#include "hnm_model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hnm_model_set {
  char *dir;        /* the directory, as given (trailing '/' removed) */
  size_t nmembers;  /* N >= 1 */
  char **specs;     /* [0]: central.xml, [1..N]: member-k.xml; each a full
                       --model specification (path and the overrides) */
  char **files;     /* [0..N]: the file names inside dir ("central.xml", ...) */
} hnm_model_set;

/* 1 if SPEC names a model set: the path before the overrides ends in ".set"
 * (with or without a trailing '/'), or holds a '/' and is a directory. Such a spec must then
 * be opened with hnm_model_set_open(); hnm_model_parse_spec() refuses it. */
int hnm_model_set_is(const char *spec);

/* Open and validate the whole set named by SPEC: the directory, its central
 * model and every member, each loaded as hnm_model_parse_spec() would (DTD,
 * values, overrides), the numbering (1..N, no gap, no duplicate, N >= 1).
 * Returns a new set (free with hnm_model_set_free()), or NULL with err
 * filled by one line naming the file at fault. */
hnm_model_set *hnm_model_set_open(const char *spec, char *err, size_t errlen);

void hnm_model_set_free(hnm_model_set *s);

/* The P-quantile (0 <= P <= 1) of V[0..N), N >= 1, sorted in place:
 * Hyndman and Fan's type 7 (linear interpolation between order statistics,
 * R's and NumPy's default): h = (N - 1) P, Q = v[floor h] + (h - floor h)
 * (v[floor h + 1] - v[floor h]). The band hnm reports is [Q(0.05), Q(0.95)]
 * over the members (the central model is not one of them). */
double hnm_quantile(double *v, size_t n, double p);

#ifdef __cplusplus
}
#endif

#endif /* HNM_MODEL_SET_H */
