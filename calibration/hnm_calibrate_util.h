/* hnm-calibrate: the operations of the benchmark, messages, mkdir -p. */
#ifndef HNM_CALIBRATE_UTIL_H
#define HNM_CALIBRATE_UTIL_H

#define PROG "hnm-calibrate"

enum { OP_SEND, OP_RECV, OP_PINGPONG, OP_ISEND, OP_IRECV, OP_COUNT };

extern const char *const op_names[OP_COUNT];

void die(const char *fmt, ...);

#endif
