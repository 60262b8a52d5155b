/* hnm_calibrate_smpi.c -- see hnm_calibrate_smpi.h. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_calibrate_smpi.h"

#include "hnm_calibrate_util.h"
#include "hnm_model.h"
#include "hnm_smpi_config.h"
#include "hnm_units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --bandwidth B --latency L and the one positional argument. */
static void route_args(int argc, char **argv, const char *cmd, const char **file, double *bw, double *lat,
                       const char **out, const char **name)
{
  *file = NULL;
  *bw = *lat = -1;
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    char err[256];
    if (o[0] != '-' || o[1] == '\0') {
      if (*file != NULL)
        die("%s: one file only ('%s' and '%s')", cmd, *file, o);
      *file = o;
      continue;
    }
    if (v == NULL)
      die("%s: %s: unknown option or missing value (see %s --help)", cmd, o, cmd);
    i++;
    if (strcmp(o, "--bandwidth") == 0) {
      if (hnm_parse_bandwidth(v, bw, err, sizeof err) != 0 || !(*bw > 0))
        die("--bandwidth: '%s': %s", v, *bw > 0 ? err : "not a bandwidth > 0 (e.g. 10Gbps, 1.25GBps)");
    } else if (strcmp(o, "--latency") == 0) {
      if (hnm_parse_time(v, lat, err, sizeof err) != 0 || !(*lat > 0))
        die("--latency: '%s': not a time > 0 (e.g. 5us)", v);
    } else if (out != NULL && strcmp(o, "-o") == 0)
      *out = v;
    else if (name != NULL && strcmp(o, "--name") == 0) {
      if (*v == '\0' || strpbrk(v, "<>&\"'") != NULL)
        die("--name: '%s': empty or has XML special characters", v);
      *name = v;
    } else
      die("%s: %s: unknown option (see %s --help)", cmd, o, cmd);
  }
  if (*file == NULL)
    die("%s: no input file (see %s --help)", cmd, cmd);
}

static void print_notes(const char *notes)
{
  for (const char *n = notes, *e; *n; n = e + 1) {
    e = strchr(n, '\n');
    fprintf(stderr, PROG ": %.*s\n", (int)(e - n), n);
  }
}

int cmd_export(int argc, char **argv)
{
  if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
    printf("usage: hnm-calibrate export MODEL --bandwidth B --latency L\n"
           "Prints the SimGrid <config> block (smpi/os, smpi/ois, smpi/or, smpi/bw-factor, smpi/lat-factor,\n"
           "smpi/async-small-thresh, smpi/send-is-detached-thresh) with which plain smpirun times messages as\n"
           "hnm-run --model MODEL does, on a route whose narrowest link has bandwidth B and whose links' latencies\n"
           "add up to L (both needed when the model has absolute latencies or bandwidths). MODEL: a model file\n"
           "or a bundled name (graphene, smpi-default, fluid). Exit 2 naming the field SimGrid's configuration\n"
           "cannot express (route classes, contention=\"none\": loggps).\n");
    return 0;
  }
  const char *file;
  double bw, lat;
  route_args(argc, argv, "export", &file, &bw, &lat, NULL, NULL);
  hnm_error err;
  hnm_model *m = hnm_model_parse_spec(file, &err);
  if (m == NULL)
    die("%s", err.msg);
  char e[1200], notes[2048] = "";
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  if (mem == NULL)
    die("out of memory");
  int rc = hnm_smpi_config_export(m, bw, lat, mem, notes, sizeof notes, e, sizeof e);
  fclose(mem);
  if (rc != 0) {
    free(buf);
    fprintf(stderr, PROG ": %s: %s\n", file, e);
    hnm_model_free(m);
    return 2;
  }
  fputs(buf, stdout);
  free(buf);
  print_notes(notes);
  hnm_model_free(m);
  return fflush(stdout) == 0 ? 0 : 1;
}

int cmd_import(int argc, char **argv)
{
  if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
    printf("usage: hnm-calibrate import CONFIG-or-PLATFORM.xml --bandwidth B --latency L -o MODEL.xml [--name N]\n"
           "Reads SimGrid's SMPI options from a <config> block (platform-calibration's output, or a platform\n"
           "file's) and writes the hnm model that times messages as plain smpirun does on a route whose\n"
           "narrowest link has bandwidth B and whose latencies add up to L (absolute latencies and bandwidths).\n"
           "Options the block lacks take SimGrid 3.32's defaults; the old names smpi/async-small-thres and\n"
           "smpi/send-is-detached-thres are read as SimGrid 3.32's -thresh ones.\n");
    return 0;
  }
  const char *file, *out = NULL, *name = "imported";
  double bw, lat;
  route_args(argc, argv, "import", &file, &bw, &lat, &out, &name);
  if (bw <= 0 || lat <= 0)
    die("import: --bandwidth and --latency are required (the route the factors apply to)");
  if (out == NULL)
    die("import: -o MODEL.xml is required");
  char tmp[4200], e[1200], notes[4096] = "";
  snprintf(tmp, sizeof tmp, "%s.tmp%ld.xml", out, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (f == NULL)
    die("%s: cannot write: %s", tmp, strerror(errno));
  int rc = hnm_smpi_config_import(file, bw, lat, name, f, notes, sizeof notes, e, sizeof e);
  if (fclose(f) != 0 && rc == 0) {
    remove(tmp);
    die("%s: cannot write", out);
  }
  if (rc != 0) {
    remove(tmp);
    fprintf(stderr, PROG ": %s\n", e);
    return 2;
  }
  hnm_error err;
  hnm_model *m = hnm_model_load(tmp, &err);
  if (m == NULL) {
    remove(tmp);
    die("%s: the imported model does not load: %s", file, err.msg);
  }
  hnm_model_free(m);
  if (rename(tmp, out) != 0) {
    remove(tmp);
    die("%s: cannot write: %s", out, strerror(errno));
  }
  print_notes(notes);
  fprintf(stderr, PROG ": wrote %s\n", out);
  return 0;
}
