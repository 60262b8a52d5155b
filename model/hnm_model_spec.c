/* hnm_model_spec.c -- --model specifications: NAME or FILE, with optional
 * key=value overrides. */
#include "hnm_model.h"
#include "hnm_model_set.h"
#include "hnm_units.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hnm_model_impl.h"

/* ------------------------------------------------------------------ */
/* --model specifications                                               */

enum spec__key {
  KEY_ASYNC, KEY_DETACHED, KEY_LIMITER, KEY_PORTS, KEY_GAP, KEY_PACK, KEY_STOCHASTIC, KEY_SEED, KEY_LOGGPS /* + LG_* */
};

/* "--model: key 'X': reason". Returns -1. */
static int spec__fail(char *err, size_t errlen, const char *key, const char *fmt, ...)
{
  char reason[MODEL__REASON];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  hnm_errf(err, errlen, "--model: key '%s': %s", key, reason);
  return -1;
}

/* The overrides of one specification, gathered before any is applied. */
struct spec__pending {
  double lg[LG_COUNT];
  long async, detached;
  enum hnm_limiter_mode limiter;
  double limiter_factor;
  enum hnm_ports ports;
  double gap; /* s */
  int pack_style;
  int seen[KEY_LOGGPS + LG_COUNT];
  int lg_changed;
};

/* The key named ITEM, or -1. */
static int spec__key(const char *item)
{
  static const char *const names[KEY_LOGGPS] = {"async", "detached", "limiter",    "ports",
                                                "gap",   "pack",     "stochastic", "seed"};
  int key = -1;

  for (int i = 0; i < KEY_LOGGPS; i++)
    if (strcmp(item, names[i]) == 0)
      key = i;
  for (int i = 0; i < LG_COUNT; i++)
    if (strcmp(item, model__lg_params[i].name) == 0)
      key = KEY_LOGGPS + i;
  return key;
}

/* The value of one key=value item into p (or m: stochastic, seed). */
static int spec__value(hnm_model *m, struct spec__pending *p, int key, const char *item, const char *val, char *err,
                       size_t errlen)
{
  char reason[MODEL__REASON];
  int i;

  switch (key) {
  case KEY_ASYNC:
  case KEY_DETACHED:
    if (model__parse_threshold(val, key == KEY_ASYNC ? &p->async : &p->detached, reason, sizeof reason) < 0)
      return spec__fail(err, errlen, item, "%s", reason);
    return 0;
  case KEY_LIMITER:
    if (model__parse_limiter(val, &p->limiter, &p->limiter_factor, reason, sizeof reason) < 0)
      return spec__fail(err, errlen, item, "%s", reason);
    return 0;
  case KEY_PACK:
    if (model__parse_pack_style(val, &p->pack_style, reason, sizeof reason) < 0)
      return spec__fail(err, errlen, item, "%s", reason);
    if (p->pack_style != HNM_PACK_NONE && (!m->has_pack || !m->pack.present[p->pack_style]))
      return spec__fail(err, errlen, item, "model '%s' gives no '%s' pack costs (see its <pack> element)", m->name,
                        val);
    return 0;
  case KEY_PORTS:
  case KEY_GAP:
    if (!m->is_loggps)
      return spec__fail(err, errlen, item, "only applies to a loggps model ('%s' is a segment table)", m->name);
    if ((key == KEY_PORTS ? model__parse_ports(val, &p->ports, reason, sizeof reason)
                          : model__parse_value(val, KIND_TIME, &p->gap, reason, sizeof reason)) < 0)
      return spec__fail(err, errlen, item, "%s", reason);
    return 0;
  case KEY_STOCHASTIC:
    if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0)
      return spec__fail(err, errlen, item, "'%s' is not on or off", val);
    m->stochastic = strcmp(val, "on") == 0;
    return 0;
  case KEY_SEED:
    if (model__parse_seed(val, &m->seed, reason, sizeof reason) < 0)
      return spec__fail(err, errlen, item, "%s", reason);
    m->has_seed = 1;
    return 0;
  default:
    i = key - KEY_LOGGPS;
    if (!m->is_loggps)
      return spec__fail(err, errlen, item, "LogGPS parameters only apply to a loggps model ('%s' is a segment table)",
                        m->name);
    if (model__parse_value(val, model__lg_params[i].kind, &p->lg[i], reason, sizeof reason) < 0)
      return spec__fail(err, errlen, item, "%s", reason);
    p->lg_changed = 1;
    return 0;
  }
}

/* One item of the list (modified): "platform" or key=value. */
static int spec__item(hnm_model *m, struct spec__pending *p, char *item, char *err, size_t errlen)
{
  static const char known[] =
      "async, detached, limiter, pack, stochastic, seed; for a loggps model also L, o, g, G, s, S, Os, Or, ports, gap, and platform";
  char *eq, *val;
  int key;

  if (*item == '\0')
    return hnm_fail(err, errlen, "--model: empty item in the key=value list (write NAME:k=v,k=v)");
  eq = strchr(item, '=');
  /* "platform": L, g and G from each message's route, not constants. */
  if (eq == NULL && strcmp(item, "platform") == 0) {
    if (!m->is_loggps)
      return spec__fail(err, errlen, item, "only applies to a loggps model ('%s' is a segment table)", m->name);
    if (m->loggps_from_route)
      return spec__fail(err, errlen, item, "given twice");
    m->loggps_from_route = 1;
    return 0;
  }
  if (eq == NULL)
    return spec__fail(err, errlen, item, "missing '=' (write %s=VALUE)", item);
  *eq = '\0';
  val = eq + 1;
  if (*item == '\0')
    return hnm_fail(err, errlen, "--model: empty key before '=%s'", val);
  key = spec__key(item);
  if (key < 0)
    return spec__fail(err, errlen, item, "unknown key (known keys: %s)", known);
  if (p->seen[key])
    return spec__fail(err, errlen, item, "given twice");
  p->seen[key] = 1;
  if (*val == '\0')
    return spec__fail(err, errlen, item, "empty value");
  return spec__value(m, p, key, item, val, err, errlen);
}

/* Apply the gathered overrides to m, then check the result. */
static int spec__commit(hnm_model *m, const struct spec__pending *p, char *err, size_t errlen)
{
  char reason[MODEL__REASON];
  const char *field;
  const char *blame = NULL;
  const int *seen = p->seen;

  if (m->loggps_from_route && (seen[KEY_LOGGPS + LG_L] || seen[KEY_LOGGPS + LG_g] || seen[KEY_LOGGPS + LG_G]))
    return spec__fail(err, errlen, seen[KEY_LOGGPS + LG_L] ? "L" : seen[KEY_LOGGPS + LG_g] ? "g" : "G",
                      "comes from each route with 'platform' (give one or the other)");
  /* Expansion resets the protocol and the limiter: apply those after it. */
  if (p->lg_changed && model__loggps_expand(m, p->lg, &field, reason, sizeof reason) < 0)
    return spec__fail(err, errlen, field, "%s", reason);
  if (seen[KEY_ASYNC])
    m->async_max = p->async;
  if (seen[KEY_DETACHED])
    m->detached_max = p->detached;
  if (seen[KEY_LIMITER]) {
    m->limiter = p->limiter;
    m->limiter_factor = p->limiter_factor;
  }
  if (seen[KEY_PACK] && m->has_pack)
    m->pack.use = p->pack_style;
  if (model__check_gap(p->ports, p->gap, reason, sizeof reason) < 0)
    return spec__fail(err, errlen, seen[KEY_GAP] ? "gap" : "ports", "%s", reason);
  m->ports = p->ports;
  m->gap = p->gap;
  if (seen[KEY_ASYNC] && !seen[KEY_DETACHED])
    blame = "async";
  else if (seen[KEY_DETACHED] && !seen[KEY_ASYNC])
    blame = "detached";
  else if (p->lg_changed && !seen[KEY_ASYNC] && !seen[KEY_DETACHED])
    blame = "S";
  if (model__check_protocol(m->async_max, m->detached_max, blame, &field, reason, sizeof reason) < 0)
    return spec__fail(err, errlen, field, "%s", reason);
  if (model__check_stochastic(m, reason, sizeof reason) < 0)
    return spec__fail(err, errlen, "stochastic", "%s", reason);
  return 0;
}

/* Apply "k=v,k=v" (opts is modified) to m, then check the result. */
static int spec__apply(hnm_model *m, char *opts, char *err, size_t errlen)
{
  struct spec__pending p = {.async = m->async_max,
                            .detached = m->detached_max,
                            .limiter = m->limiter,
                            .limiter_factor = m->limiter_factor,
                            .ports = m->ports,
                            .gap = m->gap,
                            .pack_style = HNM_PACK_NONE};
  char *item = opts;

  memcpy(p.lg, m->loggps, sizeof p.lg);
  for (;;) {
    char *comma = strchr(item, ',');
    if (comma != NULL)
      *comma = '\0';
    if (spec__item(m, &p, item, err, errlen) != 0)
      return -1;
    if (comma == NULL)
      break;
    item = comma + 1;
  }
  return spec__commit(m, &p, err, errlen);
}

static int spec__ends_with(const char *s, const char *suffix)
{
  size_t n = strlen(s), k = strlen(suffix);

  return n >= k && strcmp(s + n - k, suffix) == 0;
}

hnm_model *hnm_model_parse_spec(const char *spec, char *err, size_t errlen)
{
  char *copy = NULL, *path = NULL, *opts = NULL, *colon;
  const char *slash;
  hnm_model *m = NULL;

  if (spec == NULL || *spec == '\0') {
    hnm_errf(err, errlen, "--model: empty specification (give a model name such as graphene, or a file)");
    return NULL;
  }
  if (hnm_model_set_is(spec)) {
    hnm_errf(err, errlen, "--model: '%s' is a model set (a directory of models): hnm-run and hnm-compare take it, "
                "one model is a file or a bundled name", spec);
    return NULL;
  }
  copy = model__strdup(spec);
  if (copy == NULL)
    goto oom;

  /* The overrides start at the first ':' after the last '/', so that a
   * directory name may contain ':'. */
  slash = strrchr(copy, '/');
  colon = strchr(slash != NULL ? slash : copy, ':');
  if (colon != NULL) {
    *colon = '\0';
    opts = colon + 1;
  }
  if (*copy == '\0') {
    hnm_errf(err, errlen, "--model: '%s': missing model name before ':'", spec);
    goto err;
  }

  if (strchr(copy, '/') != NULL || spec__ends_with(copy, ".xml")) {
    m = hnm_model_load(copy, err, errlen);
  } else {
    const char *dir = hnm_model_dir();
    size_t n = strlen(dir) + strlen(copy) + sizeof "/.xml";
    FILE *f;

    path = malloc(n);
    if (path == NULL)
      goto oom;
    snprintf(path, n, "%s/%s.xml", dir, copy);
    f = fopen(path, "r");
    if (f == NULL) {
      hnm_errf(err, errlen, "--model: unknown model '%s' (bundled models: %s, looked for %s; "
                  "a model FILE must contain '/' or end in .xml)", copy, model__bundled, path);
      goto err;
    }
    fclose(f);
    m = hnm_model_load(path, err, errlen);
  }
  if (m == NULL)
    goto err;

  if (opts != NULL) {
    m->overrides = model__strdup(opts);
    if (m->overrides == NULL)
      goto oom;
    if (spec__apply(m, opts, err, errlen) < 0)
      goto err;
  }
  free(path);
  free(copy);
  return m;

oom:
  hnm_errf(err, errlen, "--model: out of memory");
err:
  hnm_model_free(m);
  free(path);
  free(copy);
  return NULL;
}
