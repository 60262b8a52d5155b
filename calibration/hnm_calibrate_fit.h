/* hnm-calibrate fit: from measurements to a fitted model. */
#ifndef HNM_CALIBRATE_FIT_H
#define HNM_CALIBRATE_FIT_H

struct cal_fit_args {
  const char *out, *report, *name;
  double *forced;
  size_t nforced;
  int forced_only;
  double penalty, noise_floor;
  int max_segments, min_sizes;
  double force_async, force_detached; /* -2 = not forced */
  int plots;
  int loss;    /* HNM_FIT_LOSS_* (see hnm_fit_medians) */
  int raw;     /* 1: fit the raw measurements, 0: the per-size medians */
  const char *pcal; /* --platform-calibration CONFIG.xml */
  int auto_bp;      /* --auto-breakpoints: not the file's */
  int file_bp;      /* --file-breakpoints: the file's, without the held-out comparison */
  long bootstrap;   /* --bootstrap N: members of the model set (0: none) */
  long seed;        /* --seed: the bootstrap's */
  int held_out;     /* --held-out: the held-out fits even where nothing needs them */
  int smooth;       /* medians: running median over 2 smooth + 1 sizes (0: none) */
  long residual_sizes; /* --residual-sizes: measured sizes pooled into each per-size residual table (odd; 0: none) */
};

int cal_cmd_fit(int argc, char **argv);

#endif
