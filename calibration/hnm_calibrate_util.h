/* hnm-calibrate: the operations of the benchmark, messages, mkdir -p. */
#ifndef HNM_CALIBRATE_UTIL_H
#define HNM_CALIBRATE_UTIL_H

#define PROG "hnm-calibrate"

#include "hnm_bench.h"

/* The benchmark's operations (core/hnm_bench.h). */
enum { OP_SEND = HNM_BENCH_SEND, OP_RECV = HNM_BENCH_RECV, OP_PINGPONG = HNM_BENCH_PINGPONG,
       OP_ISEND = HNM_BENCH_ISEND, OP_IRECV = HNM_BENCH_IRECV, OP_COUNT = HNM_BENCH_OPS };

extern const char *const op_names[OP_COUNT];

void die(const char *fmt, ...);

#endif
