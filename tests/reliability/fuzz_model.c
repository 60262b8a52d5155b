/* libFuzzer target: the model loader (a model file's bytes, through
 * hnm_model_load) and the --model spec parser (the same bytes as a spec).
 * Any crash, sanitizer report or leak is a failure; refusals are fine. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_model.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static char path[64];
  if (path[0] == '\0')
    snprintf(path, sizeof path, "/tmp/hnm-fuzz-model-%ld.xml", (long)getpid());
  FILE *f = fopen(path, "wb");
  if (f == NULL)
    return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  char err[HNM_ERRLEN];
  hnm_model *m = hnm_model_load(path, err, sizeof err);
  if (m != NULL) {
    FILE *null = fopen("/dev/null", "w");
    if (null) {
      hnm_model_explain(m, null);
      fclose(null);
    }
    hnm_model_free(m);
  }
  unlink(path);

  char *spec = malloc(size + 1);
  if (spec == NULL)
    return 0;
  memcpy(spec, data, size);
  spec[size] = '\0';
  /* Only bundled names: a spec naming a file path would read the disk. */
  if (strchr(spec, '/') == NULL && strstr(spec, ".xml") == NULL) {
    m = hnm_model_parse_spec(spec, err, sizeof err);
    hnm_model_free(m);
  }
  free(spec);
  return 0;
}
