/* hnm_check.c -- see hnm_check.h. */
#define _GNU_SOURCE
#include "hnm_check.h"
#include "hnm_platform_values.h"

#include "hnm_input.h"
#include "hnm_msg.h" /* HNM_EXIT_* */
#include "hnm_proc.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A HOST:N entry places at most this many ranks: smpirun writes N lines for
 * it into a temporary file, and no machine runs a million ranks per host. */
#define CHECK_MAX_PER_HOST 1048576L

/* The platform checker's bounds (hnm-hosts: SimGrid loading the platform). */
#define HNM_CHECK_MAX_AS_BYTES (1UL << 30)
#define HNM_CHECK_MAX_CPU_S 60
/* ... plus a second per HNM_CHECK_CPU_PER_S bytes of platform file beyond
 * HNM_CHECK_CPU_FREE: SimGrid 3.32's loading costs O(hosts x zones) (each
 * new host and link is looked up zone after zone), so a generated platform
 * of many cabinets takes long although it is legitimate: 1,024 cabinets of
 * 64 nodes (809 KB) take 40 s on an idle machine. A file that costs more
 * is a large file, and a small one stays bounded by the 60 s. */
#define HNM_CHECK_CPU_FREE (256L << 10)
#define HNM_CHECK_CPU_PER_S 4096L
#define HNM_CHECK_MAX_HOSTFILE (64 << 20) /* bytes */

#if defined(__SANITIZE_ADDRESS__)
#define CHECK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHECK_ASAN 1
#endif
#endif
#ifndef CHECK_ASAN
#define CHECK_ASAN 0
#endif

/* Decimal digits only, value in [1, max]: 0 on success. */
static int check__count(const char *s, size_t len, long max, long *out)
{
  long v = 0;
  if (len == 0)
    return -1;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9')
      return -1;
    if (v > (max - (s[i] - '0')) / 10)
      return -1;
    v = v * 10 + (s[i] - '0');
  }
  if (v < 1)
    return -1;
  *out = v;
  return 0;
}

int run_check_np(const char *text, long *np, char *err, size_t errlen)
{
  if (check__count(text, strlen(text), INT_MAX, np) != 0)
    return hnm_fail(err, errlen, "-np '%s': not a number of processes (a whole number from 1 to %d, in digits)", text,
                       INT_MAX);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Platform: SimGrid loads it in a child process.                            */

static int check__compare_names(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A host and its speed, sorted together by name. */
struct check__host {
  char *name;
  double speed;
};

static int check__compare_hosts(const void *a, const void *b)
{
  return strcmp(((const struct check__host *)a)->name, ((const struct check__host *)b)->name);
}

void run_platform_info_free(run_platform_info *info)
{
  if (info == NULL)
    return;
  for (size_t i = 0; i < info->nhosts; i++)
    free(info->hosts[i]);
  free(info->hosts);
  free(info->speeds);
  memset(info, 0, sizeof *info);
}

/* Read all of FD into a NUL-terminated buffer (NULL when out of memory). */
static char *check__slurp(int fd, size_t *len)
{
  size_t cap = 65536, n = 0;
  char *buf = malloc(cap);
  if (buf == NULL)
    return NULL;
  for (;;) {
    if (cap - n < 4096) {
      char *nb = realloc(buf, cap * 2);
      if (nb == NULL) {
        free(buf);
        return NULL;
      }
      buf = nb;
      cap *= 2;
    }
    ssize_t r = read(fd, buf + n, cap - n - 1);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    n += (size_t)r;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* SimGrid's reason in the helper's stderr: the first xbt_exception line,
 * without its "[time] [category/LEVEL] " prefix and "Uncaught exception
 * TYPE: ", else the first non-empty line without the helper's own
 * "hnm-hosts: " (plugin/hnm_hosts.cpp). */
static void check__simgrid_reason(char *text, char *out, size_t outlen)
{
  char *first = NULL, *msg = NULL;
  for (char *line = text; line != NULL && msg == NULL;) {
    char *next = strchr(line, '\n');
    if (next != NULL)
      *next++ = '\0';
    char *cat = strstr(line, "[xbt_exception/");
    if (cat != NULL && strstr(cat, "] ") != NULL)
      msg = strstr(cat, "] ") + 2;
    else if (first == NULL && *line != '\0')
      first = line;
    line = next;
  }
  if (msg == NULL)
    msg = first != NULL ? first : "";
  if (strncmp(msg, "Uncaught exception ", 19) == 0 && strstr(msg, ": ") != NULL)
    msg = strstr(msg, ": ") + 2;
  else if (strncmp(msg, "hnm-hosts: ", 11) == 0)
    msg += 11;
  hnm_errf(out, outlen, "%s", *msg ? msg : "SimGrid cannot load it");
}

long run_check_platform_cpu_bound(long long bytes)
{
  if (bytes <= HNM_CHECK_CPU_FREE)
    return HNM_CHECK_MAX_CPU_S;
  return HNM_CHECK_MAX_CPU_S + (long)((bytes - HNM_CHECK_CPU_FREE) / HNM_CHECK_CPU_PER_S);
}

/* The checker's side of the fork: HELPER loads PLATFORM with its standard
 * output to the pipe OUT and its standard error to ERRF. Never returns. */
static void check__platform_child(const char *helper, const char *platform, int out[2], FILE *errf, rlim_t cpu_s,
                                  pid_t parent)
{
  hnm_proc_child_setup(parent, SIGKILL); /* the check dies with the tool */
  dup2(out[1], 1);
  dup2(fileno(errf), 2);
  close(out[0]);
  close(out[1]);
  /* A platform file of a few lines can describe millions of hosts: the
   * checker gets HNM_CHECK_MAX_AS_BYTES of address space and cpu_s of
   * CPU time (above), and is refused beyond. */
  struct rlimit cpu = {cpu_s, cpu_s};
  setrlimit(RLIMIT_CPU, &cpu);
#if !CHECK_ASAN /* ASan reserves terabytes of address space up front */
  struct rlimit as = {HNM_CHECK_MAX_AS_BYTES, HNM_CHECK_MAX_AS_BYTES};
  setrlimit(RLIMIT_AS, &as);
#endif
  execl(helper, helper, platform, (char *)NULL);
  /* Not a message to the user: the reason the parent reads from this
   * stderr (the file ERRF), as it reads the checker's, and puts in its
   * one line. */
  dprintf(2, "cannot run the platform checker %s: %s\n", helper, strerror(errno));
  _exit(127);
}

/* Why the checker failed (wait status ST, its stderr in ERRF), in REASON. */
static void check__platform_reason(int st, FILE *errf, rlim_t cpu_s, char *reason, size_t reasonlen)
{
  rewind(errf);
  size_t elen = 0;
  char *etext = check__slurp(fileno(errf), &elen);
  check__simgrid_reason(etext ? etext : (char[]){""}, reason, reasonlen);
  if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGXCPU || WTERMSIG(st) == SIGKILL))
    hnm_errf(reason, reasonlen, "loading it takes more than %ld s of CPU time (the check's bound)", (long)cpu_s);
  else if (strstr(reason, "bad_alloc") != NULL || strstr(reason, "out of memory") != NULL ||
           strstr(reason, "Cannot allocate") != NULL || (WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && !*reason))
    hnm_errf(reason, reasonlen, "loading it needs more than %d GiB of memory (the check's bound)",
             (int)(HNM_CHECK_MAX_AS_BYTES >> 30));
  free(etext);
}

/* Run HELPER on PLATFORM and return its standard output in *TEXT (*LEN
 * bytes, to free): 0; HNM_EXIT_FAILURE when the check could not be run
 * (pipe, fork); HNM_EXIT_USAGE when SimGrid refused the platform. */
static int check__platform_load(const char *helper, const char *platform, char **text, size_t *len, char *err,
                                size_t errlen)
{
  struct stat pst;
  rlim_t cpu_s = (rlim_t)run_check_platform_cpu_bound(stat(platform, &pst) == 0 ? (long long)pst.st_size : 0);
  int out[2];
  FILE *errf = tmpfile();
  if (errf == NULL || pipe(out) != 0) {
    if (errf)
      fclose(errf);
    hnm_errf(err, errlen, "platform file '%s': cannot check it: %s", platform, strerror(errno));
    return HNM_EXIT_FAILURE;
  }
  fflush(NULL);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(out[0]);
    close(out[1]);
    fclose(errf);
    hnm_errf(err, errlen, "platform file '%s': cannot check it: %s", platform, strerror(errno));
    return HNM_EXIT_FAILURE;
  }
  if (pid == 0)
    check__platform_child(helper, platform, out, errf, cpu_s, parent);
  close(out[1]);
  *len = 0;
  *text = check__slurp(out[0], len);
  close(out[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || *text == NULL || strncmp(*text, "# hosts=", 8) != 0) {
    char reason[400];
    check__platform_reason(st, errf, cpu_s, reason, sizeof reason);
    free(*text);
    *text = NULL;
    fclose(errf);
    hnm_errf(err, errlen, "platform file '%s': %s", platform, reason);
    return HNM_EXIT_USAGE;
  }
  fclose(errf);
  return 0;
}

/* The host lines after the summary line, from P on: NAME, or NAME<tab>SPEED
 * (split at the last tab), into H (room for NH). The number read; fewer
 * than NH on a malformed line or out of memory. */
static size_t check__platform_hosts(char *p, struct check__host *h, size_t nh)
{
  size_t got = 0;
  while (*p && got < nh) {
    char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char *tab = NULL;
    for (size_t i = 0; i < n; i++)
      if (p[i] == '\t')
        tab = p + i;
    double speed = 0;
    if (tab != NULL) {
      char *end;
      speed = strtod(tab + 1, &end);
      if (end != p + n || !(speed > 0) || speed > 1e300)
        speed = -1;
    }
    if (speed < 0 || (h[got].name = strndup(p, tab ? (size_t)(tab - p) : n)) == NULL)
      break;
    h[got++].speed = speed;
    p += n + (e ? 1 : 0);
  }
  return got;
}

/* The checker's answer TEXT (LEN bytes) into INFO: 0, HNM_EXIT_USAGE (a
 * nonsense answer, no host) or HNM_EXIT_FAILURE (out of memory). */
static int check__platform_parse(const char *helper, const char *platform, char *text, size_t len,
                                 run_platform_info *info, char *err, size_t errlen)
{
  unsigned long long nh = 0, fp = 0, lim = 0;
  if (sscanf(text, "# hosts=%llu fatpipe=%llu limiters=%llu", &nh, &fp, &lim) != 3 || nh > len) {
    hnm_errf(err, errlen, "platform file '%s': the platform checker %s answered nonsense", platform, helper);
    return HNM_EXIT_USAGE;
  }
  /* " host-speed=VALUE" on the summary line: the platform's <config>. */
  char *eol = strchr(text, '\n');
  const char *hs = strstr(text, " host-speed=");
  if (hs != NULL && (eol == NULL || hs < eol)) {
    size_t n = strcspn(hs + 12, " \n");
    if (n == 0 || n >= sizeof info->host_speed) {
      hnm_errf(err, errlen, "platform file '%s': <config> smpi/host-speed: not a speed", platform);
      return HNM_EXIT_USAGE;
    }
    memcpy(info->host_speed, hs + 12, n);
    info->host_speed[n] = '\0';
  }
  struct check__host *h = calloc(nh ? nh : 1, sizeof *h);
  if (h == NULL) {
    hnm_errf(err, errlen, "platform file '%s': out of memory", platform);
    return HNM_EXIT_FAILURE;
  }
  size_t got = check__platform_hosts(eol ? eol + 1 : text + len, h, nh);
  info->fatpipe = fp;
  info->limiters = lim;
  int bad = got != nh, rc = 0;
  if (!bad && nh > 0) {
    qsort(h, got, sizeof *h, check__compare_hosts);
    info->hosts = calloc(got, sizeof *info->hosts);
    info->speeds = calloc(got, sizeof *info->speeds);
    if (info->hosts == NULL || info->speeds == NULL) {
      for (size_t i = 0; i < got; i++)
        free(h[i].name);
      free(h);
      run_platform_info_free(info);
      hnm_errf(err, errlen, "platform file '%s': out of memory", platform);
      return HNM_EXIT_FAILURE;
    }
    for (size_t i = 0; i < got; i++) {
      info->hosts[i] = h[i].name;
      info->speeds[i] = h[i].speed;
    }
    info->nhosts = got;
  } else {
    for (size_t i = 0; i < got; i++)
      free(h[i].name);
  }
  free(h);
  if (bad) {
    hnm_errf(err, errlen, "platform file '%s': the platform checker %s answered nonsense", platform, helper);
    rc = HNM_EXIT_USAGE;
  } else if (nh == 0) {
    hnm_errf(err, errlen, "platform file '%s': the platform has no host", platform);
    rc = HNM_EXIT_USAGE;
  }
  if (rc != 0)
    run_platform_info_free(info);
  return rc;
}

int run_check_platform(const char *helper, const char *platform, run_platform_info *info, char *err, size_t errlen)
{
  char why[512];
  memset(info, 0, sizeof *info);
  snprintf(info->file, sizeof info->file, "%s", platform);
  if (hnm_input_check(platform, why, sizeof why) != 0) {
    hnm_errf(err, errlen, "platform file '%s': %s", platform, why);
    return HNM_EXIT_USAGE;
  }
  /* Values SimGrid would take (NaN, inf) or refuse without naming them. */
  char vwhy[1024];
  if (hnm_platform_values_check(platform, vwhy, sizeof vwhy) != 0) {
    hnm_errf(err, errlen, "%s", vwhy);
    return HNM_EXIT_USAGE;
  }
  char *text = NULL;
  size_t len = 0;
  int rc = check__platform_load(helper, platform, &text, &len, err, errlen);
  if (rc == 0)
    rc = check__platform_parse(helper, platform, text, len, info, err, errlen);
  free(text);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Hostfile                                                                  */

static int check__has_host(const run_platform_info *info, const char *name)
{
  return info == NULL ||
         bsearch(&name, info->hosts, info->nhosts, sizeof *info->hosts, check__compare_names) != NULL;
}

int run_check_hostfile_text(const char *name, const char *text, size_t len, const run_platform_info *info,
                            long *slots, char *err, size_t errlen)
{
  long total = 0, line = 0;
  char host[256];
  const char *nul = memchr(text, '\0', len);
  if (nul != NULL) {
    long at = 1;
    for (const char *c = text; c < nul; c++)
      at += *c == '\n';
    return hnm_fail(err, errlen, "%s:%ld: NUL byte (not a text file)", name, at);
  }
  for (size_t pos = 0; pos < len;) {
    const char *s = text + pos;
    const char *nl = memchr(s, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - s) : len - pos;
    pos += n + (nl ? 1 : 0);
    line++;
    if (n == 0)
      continue; /* SimGrid skips empty lines */
    if (memchr(s, '\r', n) != NULL)
      return hnm_fail(err, errlen, "%s:%ld: carriage return in the line (DOS line ends? one host name per line)", name,
                         line);
    for (size_t i = 0; i < n; i++)
      if (s[i] == ' ' || s[i] == '\t' || s[i] == '\v' || s[i] == '\f')
        return hnm_fail(err, errlen, "%s:%ld: blank in '%.*s' (one host name per line, HOST or HOST:N, no blanks)",
                           name, line, (int)(n < 80 ? n : 80), s);
    /* smpirun splits HOST:N at the last colon. */
    const char *colon = NULL;
    for (size_t i = 0; i < n; i++)
      if (s[i] == ':')
        colon = s + i;
    size_t hl = colon ? (size_t)(colon - s) : n;
    long count = 1;
    if (colon != NULL &&
        check__count(colon + 1, n - hl - 1, CHECK_MAX_PER_HOST, &count) != 0)
      return hnm_fail(err, errlen, "%s:%ld: '%.*s': N in HOST:N must be a whole number from 1 to %ld", name, line,
                         (int)(n < 80 ? n : 80), s, CHECK_MAX_PER_HOST);
    if (hl == 0)
      return hnm_fail(err, errlen, "%s:%ld: '%.*s': no host name", name, line, (int)(n < 80 ? n : 80), s);
    if (hl >= sizeof host)
      return hnm_fail(err, errlen, "%s:%ld: host name longer than %zu bytes", name, line, sizeof host - 1);
    memcpy(host, s, hl);
    host[hl] = '\0';
    if (!check__has_host(info, host))
      return hnm_fail(err, errlen, "%s:%ld: host '%s' is not in the platform%s%s%s", name, line, host,
                         info->file[0] ? " '" : "", info->file, info->file[0] ? "'" : "");
    if (total > INT_MAX - count)
      return hnm_fail(err, errlen, "%s:%ld: more than %d ranks in the hostfile", name, line, INT_MAX);
    total += count;
  }
  if (total == 0)
    return hnm_fail(err, errlen, "hostfile '%s': no host in it (one host name per line)", name);
  *slots = total;
  return 0;
}

int run_check_hostfile(const char *hostfile, const run_platform_info *info, long *slots, char *err, size_t errlen)
{
  char why[512];
  FILE *f = hnm_input_open(hostfile, why, sizeof why);
  if (f == NULL)
    return hnm_fail(err, errlen, "hostfile '%s': %s", hostfile, why);
  /* A hostfile names each rank's host once: 16,384 ranks take about
   * 200 KB; beyond HNM_CHECK_MAX_HOSTFILE it is not a hostfile. */
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && st.st_size > HNM_CHECK_MAX_HOSTFILE) {
    fclose(f);
    return hnm_fail(err, errlen, "hostfile '%s': %lld bytes, more than %d MiB: not a hostfile", hostfile,
                       (long long)st.st_size, HNM_CHECK_MAX_HOSTFILE >> 20);
  }
  size_t len = 0;
  char *text = check__slurp(fileno(f), &len);
  fclose(f);
  if (text == NULL)
    return hnm_fail(err, errlen, "hostfile '%s': out of memory", hostfile);
  int rc = run_check_hostfile_text(hostfile, text, len, info, slots, err, errlen);
  free(text);
  return rc;
}
