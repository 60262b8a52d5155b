/* hnm_linkload_csv.h -- the columns of a link-load file (hnm-run
 * --link-load): written by libhnm.so (plugin/hnm_linkload.cpp), read by
 * hnm-linkplot. One row per link that carried traffic, in core's CSV dialect
 * (core/hnm_csv.h):
 *   link           the link's name (quoted when it holds a comma or a quote);
 *   role, a, b, c  what the link is in its topology (hnm_linkrole.h);
 *   bandwidth_Bps  its bandwidth, bytes/s;
 *   bytes          bytes routed through it;
 *   busy_s         simulated seconds with a positive usage;
 *   mean_util      integral of usage / (bandwidth x simulated time);
 *   peak_util      largest usage / bandwidth.
 */
#ifndef HNM_LINKLOAD_CSV_H
#define HNM_LINKLOAD_CSV_H

/* What a reader accepts in a row (hnm-linkplot refuses anything else with
 * the file, line and column): numbers as the plugin writes them, finite and
 *   bandwidth_Bps  above 0, at most 1e20 (hnm's "no limit", HNM_MAX_BANDWIDTH);
 *   bytes          a whole number from 0 to 2^63 (9.2 EB through one link);
 *   busy_s         from 0 to 1e12 s (31,000 years of simulated time);
 *   mean_util, peak_util  from 0 to 1000: a usage is at most its link's
 *                  bandwidth (SimGrid's max-min), 1 plus rounding; a
 *                  thousand times it is no measurement. */
#define HNM_LINKLOAD_MAX_BANDWIDTH 1e20
#define HNM_LINKLOAD_MAX_BYTES 9223372036854775808.0
#define HNM_LINKLOAD_MAX_BUSY 1e12
#define HNM_LINKLOAD_MAX_UTIL 1000.0

/* The header line (without its newline). */
#define HNM_LINKLOAD_HEADER "link,role,a,b,c,bandwidth_Bps,bytes,busy_s,mean_util,peak_util"

/* Column indexes, in the order of the header. */
enum hnm_linkload_column {
  HNM_LINKLOAD_LINK,
  HNM_LINKLOAD_ROLE,
  HNM_LINKLOAD_A,
  HNM_LINKLOAD_B,
  HNM_LINKLOAD_C,
  HNM_LINKLOAD_BANDWIDTH,
  HNM_LINKLOAD_BYTES,
  HNM_LINKLOAD_BUSY,
  HNM_LINKLOAD_MEAN,
  HNM_LINKLOAD_PEAK,
  HNM_LINKLOAD_NCOLS
};

#endif /* HNM_LINKLOAD_CSV_H */
