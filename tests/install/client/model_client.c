/* model_client.c -- a program of another project using hnm's C model API,
 * built against an installed hnm (tests/install/install.sh): through
 * pkg-config and through find_package(hnm). Loads a model by --model spec
 * (a bundled name is found under $HNM_HOME) and prints, for each size k in
 * bytes given, the remote segment's latency and bandwidth factors.
 *   model_client SPEC K...   exit 0, or 2 with hnm's message */
#include "hnm_model.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  char err[HNM_ERRLEN];
  if (argc < 2) {
    fprintf(stderr, "usage: model_client SPEC K...\n");
    return 2;
  }
  hnm_model *m = hnm_model_parse_spec(argv[1], err, sizeof err);
  if (m == NULL) {
    fprintf(stderr, "model_client: %s\n", err);
    return 2;
  }
  printf("model %s\n", hnm_model_name(m));
  for (int i = 2; i < argc; i++) {
    double k = strtod(argv[i], NULL);
    const struct hnm_segment *s = hnm_model_segment(m, HNM_ROUTE_REMOTE, k);
    printf("k=%s lat-factor=%.17g bw-factor=%.17g\n", argv[i], s->lat_factor, s->bw_factor);
  }
  hnm_model_free(m);
  return 0;
}
