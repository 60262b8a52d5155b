/* hnm_bench.h -- the CSV contract between the calibration benchmark
 * (apps/calibrate.c, compiled with smpicc or mpicc, writes) and hnm-calibrate
 * fit (calibration/hnm_calibrate_csv.c, reads). Defined once, here; both
 * include it. docs/calibration.md describes the columns.
 *
 *   p2p.csv         op,size,start,duration      op: one of HNM_BENCH_OP_NAMES;
 *                                                size: bytes; start, duration: s
 *   probe.csv       size,delay,send,recv,pingpong  bytes, then seconds
 *   contention.csv  pairs,mode,size,rank,duration  mode: "uni" or "bi"; bytes; s
 *   rma.csv         epoch,size,duration          epoch: one of HNM_BENCH_RMA_NAMES;
 *                                                size: bytes; duration: s
 *   pack.csv        pattern,class,role,n,count,blocks,bytes,style,op,reps,seconds,jumps,period
 *                   class: vector, indexed or subarray; role: fit or holdout;
 *                   n: the pattern's size parameter; count: elements of the
 *                   datatype; blocks: contiguous runs; style: interpreted,
 *                   manual, compiled or contiguous; op: pack or unpack; seconds: the
 *                   median of reps timings; jumps: the sum of the runs'
 *                   jump weights (hnm_bench_pack_jump()); period: the runs of
 *                   one repetition of an irregular layout, 0 for a regular one
 *                   (below). Files written before the jumps column
 *                   (HNM_BENCH_PACK_HEADER_V1) or before the period column
 *                   (HNM_BENCH_PACK_HEADER_V2) are still read: their jumps,
 *                   periods are 0.
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
#define HNM_BENCH_PACK_HEADER "pattern,class,role,n,count,blocks,bytes,style,op,reps,seconds,jumps,period"
#define HNM_BENCH_PACK_FIELDS 13
#define HNM_BENCH_PACK_HEADER_V2 "pattern,class,role,n,count,blocks,bytes,style,op,reps,seconds,jumps"
#define HNM_BENCH_PACK_FIELDS_V2 12
#define HNM_BENCH_PACK_HEADER_V1 "pattern,class,role,n,count,blocks,bytes,style,op,reps,seconds"
#define HNM_BENCH_PACK_FIELDS_V1 11

/* The jump weight of the run starting at byte offset TO, right after the
 * run starting at FROM in the message's type-map order: how much the two
 * runs are confined to the same cache sets. A cache of 4 KiB ways indexes
 * its sets by address bits 6-11 (and the store-to-load checks compare bits
 * 0-11), so runs a multiple of 4 KiB apart start in the same set: weight
 * 1; an odd multiple of 2 KiB, one of 2 sets: 1/2; of 1 KiB, one of 4
 * sets: 1/4; anything else (including a page and a few bytes, or the next
 * run of a small stride) 0. Measured on this project's machine
 * (bench/pack-stride.sh; docs/calibration.md, "Pack costs"), 4,096 blocks
 * of 16 bytes unpack about 6.5 ns a block slower at strides of 4, 8, 12, 20
 * or 64 KiB than at 4,080 or 4,112 bytes, about half that at 2 and 6 KiB and
 * a quarter at 1, 3 and 5 KiB, which a plain page distance cannot tell
 * apart.
 * A message's jumps are the sum of its runs' weights (multiples of 1/4,
 * exact in a double); the pack model charges a time per jump (hnm_model.h).
 * The benchmark (apps/calibrate_pack.c) sums them from its run list and the
 * plugin from the datatype's layout, both with this function. Offsets are
 * relative to the buffer: only their difference matters. */
#define HNM_BENCH_PACK_PAGE 4096LL /* bytes */
static inline double hnm_bench_pack_jump(long long from, long long to)
{
  long long d = to > from ? to - from : from - to;
  if (d == 0)
    return 0.0;
  if (d % HNM_BENCH_PACK_PAGE == 0)
    return 1.0;
  if (d % (HNM_BENCH_PACK_PAGE / 2) == 0)
    return 0.5;
  if (d % (HNM_BENCH_PACK_PAGE / 4) == 0)
    return 0.25;
  return 0.0;
}

/* The period of a layout: how many runs an engine walks before the lengths
 * of the runs repeat. A constructor that gives its blocks different lengths
 * (MPI_Type_indexed, hindexed or struct with unequal block lengths in
 * bytes, or struct blocks of different old types) makes an irregular layout
 * whose period is the number of runs of one of its elements; any other
 * constructor (vector, subarray, contiguous, indexed_block, resized, dup,
 * and indexed or struct blocks all alike) repeats its old types' layouts and
 * keeps their period, the largest one among them; a predefined type has
 * period 0 (regular). A message of COUNT elements has its type's period.
 * Why it matters: a copy loop branches on each run's length, and the
 * processor's branch predictor learns a sequence of lengths that repeats
 * within its history, which an irregular period longer than that history
 * defeats; on this project's machine, Open MPI packs runs of random 1-8
 * doubles in 3.2-3.7 ns a run up to 4,000 runs and 8.4-8.9 ns at 64,000,
 * with the data in L1 as much as with 4 MiB of it, while runs of one length
 * stay at 3.4-3.9 ns (bench/pack-history.sh; docs/calibration.md, "Pack
 * costs"). The pack
 * model charges a time per run of such a message past a history capacity
 * (hnm_model.h). The benchmark (apps/calibrate_pack.c) sets the period
 * from each pattern's constructor and the plugin from the type's
 * constructors, by this rule. */

/* The operations of the op column, in this order. */
enum hnm_bench_op { HNM_BENCH_SEND, HNM_BENCH_RECV, HNM_BENCH_PINGPONG, HNM_BENCH_ISEND, HNM_BENCH_IRECV, HNM_BENCH_OPS };
#define HNM_BENCH_OP_NAMES {"send", "recv", "pingpong", "isend", "irecv"}

/* One-sided epochs between ranks 0 (origin, timed) and 1 (target), in this
 * order (apps/calibrate.c says what each does). */
#define HNM_BENCH_RMA_FILE "rma.csv"
#define HNM_BENCH_RMA_HEADER "epoch,size,duration"
#define HNM_BENCH_RMA_FIELDS 3
enum hnm_bench_rma { HNM_BENCH_RMA_LOCK, HNM_BENCH_RMA_LOCKFLUSH, HNM_BENCH_RMA_LOCKPUT, HNM_BENCH_RMA_LOCKGET,
                     HNM_BENCH_RMA_FENCE, HNM_BENCH_RMA_PSCW, HNM_BENCH_RMA_EPOCHS };
#define HNM_BENCH_RMA_NAMES {"lock", "lockflush", "lockput", "lockget", "fence", "pscw"}

#endif /* HNM_BENCH_H */
