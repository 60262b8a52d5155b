/* hnm_bench.h -- the CSV contract between the calibration benchmark
 * (apps/calibrate.c, compiled with smpicc or mpicc, writes) and hnm-calibrate
 * fit (calibration/hnm_calibrate_csv.c, reads). Defined once, here; both
 * include it. docs/calibration.md describes the columns.
 *
 *   p2p.csv         op,size,start,duration      op: one of HNM_BENCH_OP_NAMES;
 *                                                size: bytes; start, duration: s
 *   probe.csv       size,delay,send,recv,pingpong  bytes, then seconds
 *   contention.csv  pairs,mode,size,rank,duration  mode: "uni" or "bi"; bytes; s
 *   pack.csv        pattern,class,role,n,count,blocks,bytes,style,op,reps,seconds
 *                   class: vector, indexed or subarray; role: fit or holdout;
 *                   n: the pattern's size parameter; count: elements of the
 *                   datatype; blocks: contiguous runs; style: interpreted,
 *                   manual, compiled or contiguous; op: pack or unpack; seconds: the
 *                   median of reps timings
 *
 * One row per measurement, fields separated by ',' (no field needs quoting:
 * core/hnm_csv.h reads them), every line ended by '\n'.
 */
#ifndef HNM_BENCH_H
#define HNM_BENCH_H

#define HNM_BENCH_P2P_FILE "p2p.csv"
#define HNM_BENCH_P2P_HEADER "op,size,start,duration"
#define HNM_BENCH_P2P_FIELDS 4

#define HNM_BENCH_PROBE_FILE "probe.csv"
#define HNM_BENCH_PROBE_HEADER "size,delay,send,recv,pingpong"
#define HNM_BENCH_PROBE_FIELDS 5

#define HNM_BENCH_CONTENTION_FILE "contention.csv"
#define HNM_BENCH_CONTENTION_HEADER "pairs,mode,size,rank,duration"
#define HNM_BENCH_CONTENTION_FIELDS 5
#define HNM_BENCH_MODE_UNI "uni"
#define HNM_BENCH_MODE_BI "bi"

#define HNM_BENCH_PACK_FILE "pack.csv"
#define HNM_BENCH_PACK_HEADER "pattern,class,role,n,count,blocks,bytes,style,op,reps,seconds"
#define HNM_BENCH_PACK_FIELDS 11

/* The operations of the op column, in this order. */
enum hnm_bench_op { HNM_BENCH_SEND, HNM_BENCH_RECV, HNM_BENCH_PINGPONG, HNM_BENCH_ISEND, HNM_BENCH_IRECV, HNM_BENCH_OPS };
#define HNM_BENCH_OP_NAMES {"send", "recv", "pingpong", "isend", "irecv"}

#endif /* HNM_BENCH_H */
