/* hnm-calibrate: reading the benchmark's CSVs (p2p, probe, contention). */
#ifndef HNM_CALIBRATE_CSV_H
#define HNM_CALIBRATE_CSV_H

#include <stddef.h>
#include "hnm_calibrate_util.h"
#include "hnm_fit_model.h"

struct cal_series {
  double *k, *y;
  size_t n, cap;
  const char *file; /* where its last row was read, for messages */
  long line;
};


struct cal_rma_row {
  int epoch; /* enum hnm_bench_rma */
  double size, duration;
};

struct cal_inputs {
  struct cal_series op[CAL_OP_COUNT];
  hnm_fit_probe *probe;
  size_t nprobe, capprobe;
  const char *probe_file;
  long probe_line;
  hnm_fit_contention *cont;
  size_t ncont, capcont;
  const char *cont_file;
  long cont_line;
  const char *p2p_file; /* first p2p CSV, for messages */
  long p2p_line;
  struct cal_rma_row *rma;
  size_t nrma, caprma;
  const char *rma_file;
  long rma_line;
};

int cal_parse_field(const char *f, double *v);
/* Add the rows of the CSV at PATH to IN. 0, or -1 with "FILE:LINE: field:
 * reason" in err (include/hnm/hnm_error.h); IN keeps what was read before and
 * is freed with cal_inputs_free() either way. */
int cal_read_csv(const char *path, struct cal_inputs *in, char *err, size_t errlen);
/* Free what cal_read_csv() allocated in IN. */
void cal_inputs_free(struct cal_inputs *in);
/* IN as the fit's data (hnm_fit_model.h): D borrows IN's rows. */
void cal_inputs_data(const struct cal_inputs *in, hnm_fit_data *d);

#endif
