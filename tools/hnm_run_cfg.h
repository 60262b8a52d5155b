/* hnm_run_cfg.h -- hnm-run's check of the plugin's SimGrid settings.
 *
 * libhnm.so declares its settings as SimGrid flags (hnm/model, hnm/seed,
 * ...; plugin/hnm_simgrid.cpp, plugin/hnm_linkload.cpp). SimGrid reads
 * --cfg=KEY:VALUE inside smpimain, splits it at ',' and blanks, and
 * answers an unknown key, an item without ':' or a boolean it cannot parse
 * with an uncaught exception: SIGABRT, exit status 134 and a page of
 * backtrace. hnm-run checks every hnm/ setting of its command line first,
 * against its own copy of the plugin's list (run_cfg_keys(); a test checks
 * that the two lists agree): a known key ("did you mean" for a near miss),
 * exactly one value, of the key's type. */
#ifndef HNM_RUN_CFG_H
#define HNM_RUN_CFG_H

#include <stddef.h>

/* The plugin's keys, comma-separated ("hnm/model, hnm/verbose, ..."). */
const char *run_cfg_keys(void);

/* ARG, one argument of smpirun's command line: if it is --cfg=... with an
 * hnm/ setting, check that setting (hnm/model: refused, --model sets it;
 * hnm/link-load: a file name -- whether it can be written, and is no
 * input, is the caller's check, run_cfg_link_load()). 0 when ARG is no
 * such setting or a good one, else -1 with one line in err (bad input). */
int run_cfg_check(const char *arg, char *err, size_t errlen);

/* Whether ARG (checked by run_cfg_check() first) sets hnm/link-load: 1
 * with its file name in FILE (LEN bytes), else 0. */
int run_cfg_link_load(const char *arg, char *file, size_t len);

#endif
