/* hnm_calibrate_smpi.c -- see hnm_calibrate_smpi.h. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_calibrate_smpi.h"
#include "hnm_msg.h"

#include "hnm_calibrate_util.h"
#include "hnm_model.h"
#include "hnm_opt.h"
#include "hnm_out.h"
#include "hnm_smpi_config.h"
#include "hnm_units.h"
#include "hnm_xml_writer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line per note; the buffer may end in a note cut short (notes beyond
 * its size are dropped: hnm_smpi_config.h), which is printed as it is. */
static void print_notes(const char *notes)
{
  for (const char *n = notes; *n;) {
    const char *e = strchr(n, '\n');
    int len = e != NULL ? (int)(e - n) : (int)strlen(n);
    hnm_msg_info("%.*s%s", len, n, e != NULL ? "" : " [more notes not shown]");
    if (e == NULL)
      break;
    n = e + 1;
  }
}

/* The route: NAN when not given. */
#define ROUTE_OPTS(bw, lat)                                                                                            \
  {"bandwidth", 0, HNM_OPT_BANDWIDTH, "B", NULL, "bytes/s",                                                           \
   "narrowest link bandwidth of the route the factors apply to (e.g. 10Gbps)", &(bw), 0, 0, NULL},                   \
  {                                                                                                                    \
    "latency", 0, HNM_OPT_TIME, "L", NULL, "s", "latency of that route, its links' sum (e.g. 2us)", &(lat), 0, 0, NULL \
  }

int cal_cmd_export(int argc, char **argv)
{
  double bw = NAN, lat = NAN;
  const struct hnm_opt opts[] = {ROUTE_OPTS(bw, lat), {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    "hnm-calibrate export", "MODEL [--bandwidth B --latency L]",
    "Prints the SimGrid <config> block (smpi/os, smpi/ois, smpi/or, smpi/bw-factor, smpi/lat-factor,\n"
    "smpi/async-small-thresh, smpi/send-is-detached-thresh) with which plain smpirun times messages as\n"
    "hnm-run --model MODEL does on a route of bandwidth B and latency L (both needed when the model has\n"
    "absolute latencies or bandwidths). MODEL: a model file or a bundled name.",
    "Exit 2 naming the field SimGrid's configuration cannot express (route classes with different\n"
    "tables, contention=\"none\" as in loggps). A limiter factor is printed as a comment.\n",
    NULL, 0, NULL};
  char opt_err[HNM_ERRLEN];
  int first = hnm_opt_parse(&cmd, opts, argc, argv, opt_err, sizeof opt_err);
  if (first < 0)
    return first == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", opt_err);
  if (argc - first != 1)
    return hnm_msg_option_error("MODEL", "give exactly one model (got %d)", argc - first);
  const char *file = argv[first];
  if ((!isnan(bw) && !(bw > 0)) || (!isnan(lat) && !(lat > 0)))
    return hnm_msg_option_error(isnan(bw) || bw > 0 ? "--latency" : "--bandwidth", "must be > 0");
  if (!isnan(bw) && bw > HNM_MAX_BANDWIDTH)
    return hnm_msg_option_error("--bandwidth", "%.17gBps is above 1e20Bps (hnm's 'no limit')", bw);
  if (!isnan(lat) && lat > 1)
    return hnm_msg_option_error("--latency", "%.17gs is above 1 s (docs/model-format.md)", lat);
  char err[HNM_ERRLEN];
  hnm_model *m = hnm_model_parse_spec(file, err, sizeof err);
  if (m == NULL)
    return hnm_msg_error("%s", err);
  char e[1200], notes[2048] = "";
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  if (mem == NULL) {
    hnm_model_free(m);
    return hnm_msg_failure("out of memory");
  }
  int rc = hnm_smpi_config_export(m, isnan(bw) ? -1 : bw, isnan(lat) ? -1 : lat, mem, notes, sizeof notes, e,
                                  sizeof e);
  fclose(mem);
  hnm_model_free(m);
  if (rc != 0) {
    free(buf);
    return hnm_msg_error("%s: %s", file, e); /* one line whatever the reason holds */
  }
  fputs(buf, stdout);
  free(buf);
  /* The block reached its place, or that is the one line said. */
  if (fflush(stdout) != 0 || ferror(stdout))
    return hnm_msg_failure("standard output: write error: %s", strerror(errno));
  print_notes(notes);
  return 0;
}

int cal_cmd_import(int argc, char **argv)
{
  double bw = NAN, lat = NAN;
  const char *out = NULL, *name = "imported";
  const struct hnm_opt opts[] = {
    ROUTE_OPTS(bw, lat),
    {.name = "output", .short_name = 'o', .kind = HNM_OPT_STRING, .arg = "MODEL.xml", .help = "model to write (required)", .value = &out},
    {.name = "name", .kind = HNM_OPT_STRING, .arg = "NAME", .def = "imported", .help = "model name", .value = &name},
    {.name = NULL}};
  const struct hnm_opt_cmd cmd = {
    "hnm-calibrate import", "CONFIG-or-PLATFORM.xml --bandwidth B --latency L -o MODEL.xml",
    "Reads SimGrid's SMPI options from a <config> block (platform-calibration's output, or a platform\n"
    "file's) and writes the hnm model that times messages as plain smpirun does on a route of bandwidth\n"
    "B and latency L (absolute latencies and bandwidths).",
    "Options the block lacks take SimGrid 3.32's defaults; the old names smpi/async-small-thres and\n"
    "smpi/send-is-detached-thres are read as SimGrid 3.32's -thresh ones.\n",
    NULL, 0, NULL};
  char opt_err[HNM_ERRLEN];
  int first = hnm_opt_parse(&cmd, opts, argc, argv, opt_err, sizeof opt_err);
  if (first < 0)
    return first == HNM_OPT_DONE ? HNM_EXIT_OK : hnm_msg_error("%s", opt_err);
  if (argc - first != 1)
    return hnm_msg_option_error("CONFIG", "give exactly one configuration or platform file (got %d)", argc - first);
  const char *file = argv[first];
  if (!(bw > 0))
    return hnm_msg_option_error("--bandwidth", "required, > 0 (the route the factors apply to)");
  if (!(lat > 0))
    return hnm_msg_option_error("--latency", "required, > 0 (the route the factors apply to)");
  /* docs/model-format.md's ranges, before the file is read. */
  if (bw > HNM_MAX_BANDWIDTH)
    return hnm_msg_option_error("--bandwidth", "%.17gBps is above 1e20Bps (hnm's 'no limit')", bw);
  if (lat > 1)
    return hnm_msg_option_error("--latency", "%.17gs is above 1 s (docs/model-format.md)", lat);
  if (out == NULL)
    return hnm_msg_option_error("--output", "-o MODEL.xml is required");
  if (hnm_out_same_file(out, file))
    return hnm_msg_option_error("--output", "'%s' is the input file %s", out, file);
  if (*name == '\0' || strpbrk(name, "<>&\"'") != NULL)
    return hnm_msg_option_error("--name", "'%s' is empty or has XML special characters", name);
  char e[1200], notes[4096] = "";
  if (hnm_xml_text_check(name, e, sizeof e) != 0)
    return hnm_msg_option_error("--name", "%s (a model name is UTF-8 text)", e);
  hnm_model *m = NULL;
  if (hnm_smpi_config_import(file, bw, lat, name, &m, notes, sizeof notes, e, sizeof e) != 0) {
    return hnm_msg_error("%s", e); /* one line: libxml2's reasons may hold newlines */
  }
  hnm_out *o = hnm_out_open(out, "-o", e, sizeof e);
  if (o == NULL) {
    hnm_model_free(m);
    return hnm_msg_error("%s", e);
  }
  char werr[HNM_ERRLEN];
  if (hnm_model_write(m, hnm_out_file(o), werr, sizeof werr) != 0) {
    /* The output module's reason (ENOSPC) when the stream failed. */
    if (hnm_out_finish(o, e, sizeof e) == 0)
      hnm_errf(e, sizeof e, "-o: '%s': %s", out, werr);
    hnm_out_abort(o);
    hnm_model_free(m);
    return hnm_msg_failure("%s", e);
  }
  hnm_model_free(m);
  if (hnm_out_commit(o, e, sizeof e) != 0)
    return hnm_msg_failure("%s", e);
  print_notes(notes);
  hnm_msg_info("wrote %s", out);
  return 0;
}
