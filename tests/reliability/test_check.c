/* Unit tests of hnm-run's input checks (tools/hnm_check.h) and of the
 * non-blocking input opener (core/hnm_input.h): exact accept/refuse
 * decisions at every boundary (INT_MAX, HOST:N limits, empty lines). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "hnm_check.h"
#include "hnm_input.h"
#include "hnm_speed.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *host_names[] = {"a", "b", "n-0", "node:1"}; /* sorted */
static const run_platform_info info = {host_names, 4, 0, 0, NULL, "", ""};

static long slots_of(const char *text)
{
  char err[HNM_ERRLEN];
  long slots = -1;
  if (run_check_hostfile_text("h", text, strlen(text), &info, &slots, err, sizeof err) != 0)
    return -1;
  return slots;
}

/* smpi/host-speed chosen for hostfile TEXT (NULL: none), NP ranks, the
 * user's value USER, on hosts a..node:1 of speeds 1, 2, 4, 8 Gf and the
 * platform <config> value CONFIG ("" if none); -1 if refused. */
static double speed_of(const char *text, long np, const char *user, const char *config, double *min, double *max)
{
  static double speeds[] = {1e9, 2e9, 4e9, 8e9};
  run_platform_info pi = {host_names, 4, 0, 0, speeds, "", ""};
  snprintf(pi.host_speed, sizeof pi.host_speed, "%s", config);
  run_speed s;
  char err[HNM_ERRLEN];
  if (run_speed_choose_text(&pi, text, text ? strlen(text) : 0, np, user, &s, err, sizeof err) != 0)
    return -1;
  *min = s.min;
  *max = s.max;
  return s.source == RUN_SPEED_USER ? -2 : s.value;
}

static double parsed(const char *text)
{
  double v = -1;
  char err[256];
  return run_speed_parse(text, &v, err, sizeof err) == 0 ? v : -1;
}

static int np_ok(const char *s, long want)
{
  char err[HNM_ERRLEN];
  long np = 0;
  return run_check_np(s, &np, err, sizeof err) == 0 && np == want;
}

static int np_refused(const char *s)
{
  char err[HNM_ERRLEN];
  long np = 0;
  return run_check_np(s, &np, err, sizeof err) != 0 && strstr(err, "-np '") != NULL;
}

int main(void)
{
  /* -np: decimal digits, 1 .. INT_MAX. */
  CHECK(np_ok("1", 1));
  CHECK(np_ok("2", 2));
  CHECK(np_ok("2147483647", 2147483647L));
  CHECK(np_ok("007", 7));
  CHECK(np_refused("0"));
  CHECK(np_refused("2147483648"));
  CHECK(np_refused("99999999999999999999"));
  CHECK(np_refused("-1"));
  CHECK(np_refused("+2"));
  CHECK(np_refused("2.5"));
  CHECK(np_refused("1e3"));
  CHECK(np_refused("abc"));
  CHECK(np_refused(""));
  CHECK(np_refused(" 2"));
  CHECK(np_refused("2 "));

  /* Hostfiles: capacity, empty lines, HOST:N (split at the last colon). */
  CHECK_EQ(slots_of("a\n"), 1);
  CHECK_EQ(slots_of("a"), 1); /* no final newline */
  CHECK_EQ(slots_of("a\nb\n"), 2);
  CHECK_EQ(slots_of("a\n\n\nb\n\n"), 2);
  CHECK_EQ(slots_of("a:1\n"), 1);
  CHECK_EQ(slots_of("a:3\nb:2\n"), 5);
  CHECK_EQ(slots_of("a:1048576\n"), 1048576);
  CHECK_EQ(slots_of("a:1048577\n"), -1);
  CHECK_EQ(slots_of("node:1\n"), -1);  /* host "node", N = 1: not a host */
  CHECK_EQ(slots_of("node:1:2\n"), 2); /* host "node:1", N = 2 */
  CHECK_EQ(slots_of("a:0\n"), -1);
  CHECK_EQ(slots_of("a:\n"), -1);
  CHECK_EQ(slots_of(":3\n"), -1);
  CHECK_EQ(slots_of("a:+1\n"), -1);
  CHECK_EQ(slots_of("a:-1\n"), -1);
  CHECK_EQ(slots_of("a:1.5\n"), -1);
  CHECK_EQ(slots_of("a:x\n"), -1);
  CHECK_EQ(slots_of(""), -1);
  CHECK_EQ(slots_of("\n\n"), -1);
  CHECK_EQ(slots_of(" a\n"), -1);
  CHECK_EQ(slots_of("a \n"), -1);
  CHECK_EQ(slots_of("a\tb\n"), -1);
  CHECK_EQ(slots_of(" \n"), -1);
  CHECK_EQ(slots_of("a\r\n"), -1);
  CHECK_EQ(slots_of("c\n"), -1);
  CHECK_EQ(slots_of("A\n"), -1);
  /* INT_MAX ranks in all, not one more. */
  {
    long per = 1048576, full = INT_MAX / per, rest = INT_MAX % per;
    char *buf = calloc((size_t)(full + 4) * 16, 1);
    size_t n = 0;
    CHECK(buf != NULL);
    for (long i = 0; buf && i < full; i++)
      n += (size_t)sprintf(buf + n, "a:1048576\n");
    if (buf) {
      n += (size_t)sprintf(buf + n, "b:%ld\n", rest);
      CHECK_EQ(slots_of(buf), INT_MAX);
      sprintf(buf + n, "a\n");
      CHECK_EQ(slots_of(buf), -1);
    }
    free(buf);
  }
  /* Messages name the file and line. */
  {
    char err[HNM_ERRLEN];
    long slots;
    const char *t = "a\n\nfoo\n";
    CHECK(run_check_hostfile_text("hosts.txt", t, strlen(t), &info, &slots, err, sizeof err) != 0);
    CHECK(strcmp(err, "hosts.txt:3: host 'foo' is not in the platform") == 0);
    /* NUL bytes: not a text file. */
    CHECK(run_check_hostfile_text("bin", "a\0b\n", 4, &info, &slots, err, sizeof err) != 0);
    /* Without platform information, any name is a host. */
    CHECK(run_check_hostfile_text("h", "zz:2\n", 5, NULL, &slots, err, sizeof err) == 0 && slots == 2);
  }

  /* Speeds as SimGrid writes them. */
  CHECK_EQ(parsed("20000f"), 20000);
  CHECK_EQ(parsed("1e9"), 1e9);
  CHECK_EQ(parsed("2.5Gf"), 2.5e9);
  CHECK_EQ(parsed("100Mflops"), 1e8);
  CHECK_EQ(parsed("1kf"), 1e3);
  CHECK_EQ(parsed("3Tf"), 3e12);
  CHECK_EQ(parsed("1000000000f"), 1e9);
  CHECK_EQ(parsed("1Gbps"), -1);
  CHECK_EQ(parsed("1G"), -1);
  CHECK_EQ(parsed("0f"), -1);
  CHECK_EQ(parsed("-1Gf"), -1);
  CHECK_EQ(parsed("inf"), -1);
  CHECK_EQ(parsed("nan"), -1);
  CHECK_EQ(parsed(""), -1);
  CHECK_EQ(parsed(" 1Gf"), -1);
  CHECK_EQ(parsed("1Gf "), -1);
  CHECK_EQ(parsed("Gf"), -1);
  /* Which hosts set smpi/host-speed: the hostfile's first -np places. */
  {
    double lo, hi;
    CHECK(speed_of(NULL, 0, NULL, "", &lo, &hi) == 8e9 && lo == 1e9 && hi == 8e9);
    CHECK(speed_of("a\nb\n", 0, NULL, "", &lo, &hi) == 2e9 && lo == 1e9 && hi == 2e9);
    CHECK(speed_of("a\nb\n", 1, NULL, "", &lo, &hi) == 1e9 && lo == 1e9 && hi == 1e9);
    CHECK(speed_of("a\nb\n", 2, NULL, "", &lo, &hi) == 2e9);
    CHECK(speed_of("a\nb\n", 3, NULL, "", &lo, &hi) == 2e9); /* wraps around */
    CHECK(speed_of("a:3\nn-0\n", 3, NULL, "", &lo, &hi) == 1e9);
    CHECK(speed_of("a:3\nn-0\n", 4, NULL, "", &lo, &hi) == 4e9);
    CHECK(speed_of("\n\nb\n", 1, NULL, "", &lo, &hi) == 2e9);
    CHECK(speed_of("node:1:2\n", 0, NULL, "", &lo, &hi) == 8e9); /* host "node:1" */
    CHECK(speed_of("b\nn-0", 0, NULL, "", &lo, &hi) == 4e9);    /* no final newline */
    /* The platform's <config> wins over the hosts, the user over both. */
    CHECK(speed_of("a\n", 0, NULL, "2.5Gf", &lo, &hi) == 2.5e9 && hi == 1e9);
    CHECK_EQ(speed_of("a\n", 0, "3Gf", "2.5Gf", &lo, &hi), -2);
    CHECK(speed_of("a\n", 0, NULL, "fast", &lo, &hi) == -1);
    /* Unknown speeds (an older hnm-hosts): nothing chosen. */
    run_platform_info pi = {host_names, 4, 0, 0, NULL, "", ""};
    run_speed s;
    char err[HNM_ERRLEN];
    CHECK(run_speed_choose_text(&pi, "a\n", 2, 0, NULL, &s, err, sizeof err) == 0 && s.source == RUN_SPEED_NONE &&
          s.text[0] == '\0');
    double speeds[] = {1e9, 2e9, 4e9, 8e9};
    pi.speeds = speeds;
    CHECK(run_speed_choose_text(&pi, "a\n", 2, 0, NULL, &s, err, sizeof err) == 0 && strcmp(s.text, "1000000000f") == 0);
    speeds[0] = 1.0 / 3;
    CHECK(run_speed_choose_text(&pi, "a\n", 2, 0, NULL, &s, err, sizeof err) == 0 && parsed(s.text) == 1.0 / 3);
  }

  /* hnm_input: regular files only, never blocking. */
  {
    char dir[] = "/tmp/hnm-test-check-XXXXXX", path[256], err[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK_EQ(mkfifo(path, 0600), 0);
    CHECK(hnm_input_check(path, err, sizeof err) != 0 && strcmp(err, "not a regular file (a named pipe)") == 0);
    CHECK(hnm_input_open(path, err, sizeof err) == NULL);
    unlink(path);
    CHECK(hnm_input_check(dir, err, sizeof err) != 0 && strcmp(err, "not a regular file (a directory)") == 0);
    CHECK(hnm_input_check("/dev/null", err, sizeof err) != 0 &&
          strcmp(err, "not a regular file (a character device)") == 0);
    CHECK(hnm_input_check("", err, sizeof err) != 0);
    snprintf(path, sizeof path, "%s/missing", dir);
    CHECK(hnm_input_check(path, err, sizeof err) != 0 && strncmp(err, "cannot open: ", 13) == 0);
    snprintf(path, sizeof path, "%s/file", dir);
    FILE *w = fopen(path, "w");
    CHECK(w != NULL && fputs("x\n", w) >= 0 && fclose(w) == 0);
    FILE *r = hnm_input_open(path, err, sizeof err);
    char line[8] = "";
    CHECK(r != NULL && fgets(line, sizeof line, r) != NULL && strcmp(line, "x\n") == 0);
    if (r)
      fclose(r);
    unlink(path);
    rmdir(dir);
  }
  /* The platform check's CPU bound: 60 s up to 256 KiB of file, then one
   * second more per whole 4 KiB (the 809,161-byte platform of 1,024
   * cabinets of 64 nodes: 60 + 547,017 / 4096 = 60 + 133). */
  CHECK_EQ(run_check_platform_cpu_bound(0), 60L);
  CHECK_EQ(run_check_platform_cpu_bound(262144), 60L);
  CHECK_EQ(run_check_platform_cpu_bound(262145), 60L);
  CHECK_EQ(run_check_platform_cpu_bound(262144 + 4095), 60L);
  CHECK_EQ(run_check_platform_cpu_bound(262144 + 4096), 61L);
  CHECK_EQ(run_check_platform_cpu_bound(1048576), 252L);
  CHECK_EQ(run_check_platform_cpu_bound(809161), 193L);
  return check_finish();
}
