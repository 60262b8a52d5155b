/* test_readers.c -- hnm-calibrate's readers return their refusals
 * (include/hnm/hnm_error.h) instead of exiting: cal_read_csv() and
 * cal_refine_read_breakpoints() on broken files give -1 and the one line the
 * tool prints, and this process goes on to the next case. The tool's own
 * exit status and message for the same files are checked by bad_input.sh
 * and refine.sh. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include "hnm_calibrate_csv.h"
#include "hnm_calibrate_refine.h"
#include "hnm_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/hnm-test-readers-XXXXXX";

/* DIR/NAME holding TEXT; the path in a static buffer. */
static const char *file(const char *name, const char *text)
{
  static char path[4][256];
  static int next;
  char *p = path[next++ % 4];
  snprintf(p, sizeof path[0], "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  if (f == NULL || fputs(text, f) == EOF || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", p);
    exit(1);
  }
  return p;
}

/* cal_read_csv() on TEXT refuses with exactly "PATH:" WANT. */
static void csv_refused(const char *text, const char *want, int line)
{
  const char *path = file("bad.csv", text);
  char err[HNM_ERRLEN] = "(untouched)", expect[HNM_ERRLEN];
  snprintf(expect, sizeof expect, "%s:%s", path, want);
  struct cal_inputs in;
  memset(&in, 0, sizeof in);
  int rc = cal_read_csv(path, &in, err, sizeof err);
  cal_inputs_free(&in);
  if (rc == -1 && strcmp(err, expect) == 0) {
    check_passed++;
  } else {
    check_failed++;
    fprintf(stderr, "%s:%d: cal_read_csv: rc %d (want -1), message\n  got:  %s\n  want: %s\n", __FILE__, line, rc, err,
            expect);
  }
}

static void test_read_csv(void)
{
  /* Accepted: the rows are there. */
  char err[HNM_ERRLEN] = "";
  struct cal_inputs in;
  memset(&in, 0, sizeof in);
  const char *good = file("good.csv", "op,size,start,duration\nsend,8,0,1e-6\npingpong,1024,1,2e-6\n");
  CHECK(cal_read_csv(good, &in, err, sizeof err) == 0);
  CHECK(in.op[CAL_OP_SEND].n == 1 && in.op[CAL_OP_SEND].k[0] == 8 && in.op[CAL_OP_SEND].y[0] == 1e-6);
  CHECK(in.op[CAL_OP_PINGPONG].n == 1 && in.op[CAL_OP_PINGPONG].k[0] == 1024);
  CHECK(strcmp(err, "") == 0);
  cal_inputs_free(&in);

  /* The probe's columns land in their fields: send and receive differ. */
  memset(&in, 0, sizeof in);
  const char *probe = file("probe.csv", "size,delay,send,recv,pingpong\n8,0.001,2e-6,3e-6,5e-6\n");
  CHECK(cal_read_csv(probe, &in, err, sizeof err) == 0);
  CHECK(in.nprobe == 1);
  if (in.nprobe == 1) {
    CHECK(in.probe[0].size == 8 && in.probe[0].delay == 0.001);
    CHECK(in.probe[0].send == 2e-6);
    CHECK(in.probe[0].recv == 3e-6);
    CHECK(in.probe[0].pingpong == 5e-6);
  }
  cal_inputs_free(&in);

  csv_refused("", "1: empty file (no header)", __LINE__);
  csv_refused("op,size,start,duration\n", "1: no measurements after the header", __LINE__);
  csv_refused("size,op\n1,2\n",
              "1: unknown header 'size,op' (expected op,size,start,duration or size,delay,send,recv,pingpong or "
              "pairs,mode,size,rank,duration or epoch,size,duration)",
              __LINE__);
  csv_refused("op,size,start,duration\nsend,8,0\n", "2: 3 field(s), expected 4", __LINE__);
  csv_refused("op,size,start,duration\nsend,1.5,0,1e-6\n", "2: size: '1.5' is not a whole number of bytes",
              __LINE__);
  csv_refused("op,size,start,duration\nsend,-8,0,1e-6\n", "2: size: '-8' is not a non-negative number", __LINE__);
  csv_refused("op,size,start,duration\nsend,8,0,3601\n",
              "2: duration: 3601 s is above 3600 s (not the time of one message)", __LINE__);
  csv_refused("op,size,start,duration\nwait,8,0,1e-6\n",
              "2: op: unknown operation 'wait' (send, recv, pingpong, isend, irecv)", __LINE__);
  csv_refused("op,size,start,duration\nsend,8,0,1e-6", "2: truncated line (no end of line)", __LINE__);
  csv_refused("size,delay,send,recv,pingpong\n8,0,1,1,1\n", "2: delay: must be > 0", __LINE__);

  /* A missing file: the reason, and err is all that changed. */
  char path[300];
  snprintf(path, sizeof path, "%s/missing.csv", dir);
  memset(&in, 0, sizeof in);
  CHECK(cal_read_csv(path, &in, err, sizeof err) == -1);
  CHECK(strncmp(err, path, strlen(path)) == 0 && strlen(err) > strlen(path) + 2);
  cal_inputs_free(&in);
  /* No room for a message: still -1, nothing written. */
  CHECK(cal_read_csv(path, &in, NULL, 0) == -1);
}

static void test_breakpoints(void)
{
  double bp[4];
  size_t n = 99;
  char err[HNM_ERRLEN] = "(untouched)";
  const char *ok = file("breakpoints.csv", "breakpoint,status\n1024,located\n4096,merged\n65536,located\n");
  int is_bp = -1;
  CHECK(cal_refine_read_breakpoints(ok, bp, 4, &n, &is_bp, err, sizeof err) == 0);
  CHECK(is_bp == 1);
  CHECK(n == 2 && bp[0] == 1024 && bp[1] == 65536);
  CHECK(strcmp(err, "(untouched)") == 0);
  /* Another kind of file: 0 and not one, not an error. */
  const char *other = file("p2p.csv", "op,size,start,duration\nsend,8,0,1e-6\n");
  CHECK(cal_refine_read_breakpoints(other, bp, 4, &n, &is_bp, err, sizeof err) == 0);
  CHECK(is_bp == 0 && n == 0);

  char expect[HNM_ERRLEN];
  const char *bad = file("bad-bp.csv", "breakpoint,status\n1024,found\n");
  snprintf(expect, sizeof expect, "%s:2: expected BYTES,located or BYTES,merged", bad);
  CHECK(cal_refine_read_breakpoints(bad, bp, 4, &n, &is_bp, err, sizeof err) == -1);
  CHECK(strcmp(err, expect) == 0);
  if (strcmp(err, expect) != 0)
    fprintf(stderr, "  got:  %s\n  want: %s\n", err, expect);

  const char *many = file("many-bp.csv", "breakpoint,status\n1,located\n2,located\n3,located\n");
  snprintf(expect, sizeof expect, "%s:4: more than 2 breakpoints", many);
  CHECK(cal_refine_read_breakpoints(many, bp, 2, &n, &is_bp, err, sizeof err) == -1);
  CHECK(strcmp(err, expect) == 0);
  if (strcmp(err, expect) != 0)
    fprintf(stderr, "  got:  %s\n  want: %s\n", err, expect);

  const char *cut = file("cut-bp.csv", "breakpoint,status\n1,located");
  snprintf(expect, sizeof expect, "%s:2: truncated line (no end of line)", cut);
  CHECK(cal_refine_read_breakpoints(cut, bp, 4, &n, &is_bp, err, sizeof err) == -1);
  CHECK(strcmp(err, expect) == 0);
}

int main(void)
{
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  test_read_csv();
  test_breakpoints();
  /* This line is reached: no reader exited. */
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", dir);
  return check_finish();
}
