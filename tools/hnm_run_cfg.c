/* hnm_run_cfg.c -- hnm-run's check of the plugin's SimGrid settings
 * (hnm_run_cfg.h). */
#include "hnm_run_cfg.h"
#include "hnm_error.h"
#include "hnm_linkrole.h"

#include <stdio.h>
#include <string.h>

enum run_cfg_type { RUN_CFG_OWNED, RUN_CFG_BOOL, RUN_CFG_SEED, RUN_CFG_FILE, RUN_CFG_TOPOLOGY };

/* The plugin's flags, as it declares them (simgrid::config::Flag, in
 * plugin/hnm_simgrid.cpp and plugin/hnm_linkload.cpp), with their types:
 * what their validators and SimGrid's parsers accept. tests/sim/bad_input.sh
 * checks this list against the plugin's source. */
static const struct {
  const char *key;
  enum run_cfg_type type;
} run_cfg_table[] = {
  {"hnm/model", RUN_CFG_OWNED},          {"hnm/verbose", RUN_CFG_BOOL},       {"hnm/seed", RUN_CFG_SEED},
  {"hnm/fast", RUN_CFG_BOOL},            {"hnm/detached-remedy", RUN_CFG_BOOL}, {"hnm/unlock-remedy", RUN_CFG_BOOL},
  {"hnm/link-load", RUN_CFG_FILE},       {"hnm/link-topology", RUN_CFG_TOPOLOGY},
};
#define RUN_CFG_NKEYS (sizeof run_cfg_table / sizeof *run_cfg_table)

/* SimGrid's separators of --cfg= settings (xbt/config.cpp, set_parse). */
#define RUN_CFG_SEPARATORS " \t\n,"

const char *run_cfg_keys(void)
{
  static char list[256];
  if (list[0] == '\0')
    for (size_t i = 0; i < RUN_CFG_NKEYS; i++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i > 0 ? ", " : "", run_cfg_table[i].key);
  return list;
}

/* Edit distance of A (N bytes) and B, for "did you mean": O(N x |B|) with
 * N bounded by the caller. */
static size_t cfg__distance(const char *a, size_t n, const char *b)
{
  size_t m = strlen(b), row[64];
  if (m >= 64)
    return (size_t)-1;
  for (size_t j = 0; j <= m; j++)
    row[j] = j;
  for (size_t i = 1; i <= n; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= m; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  return row[m];
}

/* An unknown key KEY (N bytes): the nearest known one within 2 edits. */
static int cfg__unknown(const char *arg, const char *key, size_t n, char *err, size_t errlen)
{
  const char *near = NULL;
  size_t best = 3;
  for (size_t i = 0; i < RUN_CFG_NKEYS && n < 64; i++) {
    size_t d = cfg__distance(key, n, run_cfg_table[i].key);
    if (d < best)
      best = d, near = run_cfg_table[i].key;
  }
  if (near != NULL)
    return hnm_fail(err, errlen, "'%s': hnm has no setting %.*s (did you mean %s?)", arg, (int)n, key, near);
  return hnm_fail(err, errlen, "'%s': hnm has no setting %.*s (its settings: %s)", arg, (int)n > 64 ? 64 : (int)n,
                  key, run_cfg_keys());
}

/* The value V (N bytes) of KEY, of type T. 0, or -1 with the line. */
static int cfg__value(const char *arg, const char *key, enum run_cfg_type t, const char *v, size_t n, char *err,
                      size_t errlen)
{
  static const char *const bools[] = {"yes", "on", "true", "1", "no", "off", "false", "0"};
  char topo[64], params[512];
  switch (t) {
  case RUN_CFG_OWNED:
    return hnm_fail(err, errlen, "'%s' conflicts with --model (hnm sets %s from the model)", arg, key);
  case RUN_CFG_BOOL:
    for (size_t k = 0; k < sizeof bools / sizeof *bools; k++)
      if (strlen(bools[k]) == n && strncmp(v, bools[k], n) == 0)
        return 0;
    return hnm_fail(err, errlen, "'%s': %s takes yes, no, on, off, true, false, 1 or 0", arg, key);
  case RUN_CFG_SEED:
    /* The plugin's seed: a whole number that fits 64 bits, exactly. */
    if (n == 0 || strspn(v, "0123456789") < n || n > 20 || (n == 20 && strncmp(v, "18446744073709551615", 20) > 0))
      return hnm_fail(err, errlen, "'%s': %s takes a whole number from 0 to 18446744073709551615", arg, key);
    return 0;
  case RUN_CFG_FILE:
    if (n == 0)
      return hnm_fail(err, errlen, "'%s': %s takes a file name (or use --link-load FILE)", arg, key);
    return 0;
  case RUN_CFG_TOPOLOGY: {
    /* TOPOLOGY:PARAMETERS, commas written x (hnm_linkload.cpp). */
    const char *colon = memchr(v, ':', n);
    size_t tn = colon != NULL ? (size_t)(colon - v) : 0, pn = colon != NULL ? n - tn - 1 : 0;
    if (colon != NULL && tn > 0 && tn < sizeof topo && pn > 0 && pn < sizeof params) {
      snprintf(topo, sizeof topo, "%.*s", (int)tn, v);
      snprintf(params, sizeof params, "%.*s", (int)pn, colon + 1);
      for (char *p = params; *p; p++)
        if (*p == 'x')
          *p = ',';
      struct hnm_linkrole_topo tp;
      if (hnm_linkrole_topo_parse(topo, params, &tp) == 0)
        return 0;
    }
    return hnm_fail(err, errlen,
                    "'%s': %s takes TOPOLOGY:PARAMETERS, commas written x (TORUS:8x8x8, FAT_TREE:2;4x4;1x2;1x2, "
                    "DRAGONFLY:3x4;4x3;5x1;2)",
                    arg, key);
  }
  }
  return 0;
}

/* One setting ITEM (N bytes) of ARG, starting with "hnm/"; NEXT: the item
 * after it (NULL if none), which SimGrid would take for a setting of its own. */
static int cfg__item(const char *arg, const char *item, size_t n, const char *next, char *err, size_t errlen)
{
  const char *colon = memchr(item, ':', n);
  size_t kn = colon != NULL ? (size_t)(colon - item) : n;
  for (size_t i = 0; i < RUN_CFG_NKEYS; i++) {
    const char *key = run_cfg_table[i].key;
    if (strlen(key) != kn || strncmp(item, key, kn) != 0)
      continue;
    if (colon == NULL)
      return hnm_fail(err, errlen, "'%s': %s has no value (--cfg=%s:VALUE)", arg, key, key);
    if (next != NULL && strncmp(next, "hnm/", 4) != 0 && strcspn(next, ":" RUN_CFG_SEPARATORS) ==
                                                            strcspn(next, RUN_CFG_SEPARATORS))
      return hnm_fail(err, errlen, "'%s': %s takes one value (SimGrid splits --cfg values at ',' and blanks)", arg,
                      key);
    return cfg__value(arg, key, run_cfg_table[i].type, colon + 1, n - kn - 1, err, errlen);
  }
  return cfg__unknown(arg, item, kn, err, errlen);
}

int run_cfg_check(const char *arg, char *err, size_t errlen)
{
  if (strncmp(arg, "--cfg=", 6) != 0)
    return 0;
  /* Every item SimGrid will read, as it splits them. */
  const char *p = arg + 6;
  while (*(p += strspn(p, RUN_CFG_SEPARATORS)) != '\0') {
    size_t n = strcspn(p, RUN_CFG_SEPARATORS);
    const char *next = p + n + strspn(p + n, RUN_CFG_SEPARATORS);
    if (strncmp(p, "hnm/", 4) == 0 && cfg__item(arg, p, n, *next != '\0' ? next : NULL, err, errlen) != 0)
      return -1;
    p += n;
  }
  return 0;
}

int run_cfg_link_load(const char *arg, char *file, size_t len)
{
  static const char key[] = "hnm/link-load:";
  if (strncmp(arg, "--cfg=", 6) != 0)
    return 0;
  const char *p = arg + 6;
  while (*(p += strspn(p, RUN_CFG_SEPARATORS)) != '\0') {
    size_t n = strcspn(p, RUN_CFG_SEPARATORS);
    if (n >= sizeof key - 1 && strncmp(p, key, sizeof key - 1) == 0 && n - (sizeof key - 1) < len) {
      snprintf(file, len, "%.*s", (int)(n - (sizeof key - 1)), p + sizeof key - 1);
      return 1;
    }
    p += n;
  }
  return 0;
}
