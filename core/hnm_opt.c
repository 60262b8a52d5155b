/* hnm_opt.c -- option tables on getopt_long (hnm_opt.h).
 *
 * getopt_long keeps its state in globals (optind, optarg, optopt and glibc's
 * private "next character" of a cluster of short options). That is safe in
 * the tools (one thread) and, with the care below, in the MPI programs of
 * apps/, which compile this file with smpicc and, under SMPI, run every rank
 * in ONE process (privatization off is their norm, apps/skel.h):
 *
 * - SMPI ranks are cooperative contexts: a rank runs until it enters MPI or
 *   SimGrid, and never in parallel with another rank as long as SimGrid's
 *   contexts/nthreads is 1 (its default, and what hnm-run uses; SimGrid's own
 *   getopt wrappers assume the same). hnm_opt_scan() starts with optind = 0
 *   (glibc: initialise everything, nextchar included) and reads optind and
 *   optarg right after each call; between its first and last getopt_long
 *   call it makes no MPI or SimGrid call, so no other rank can run in
 *   between and see or move the shared state. The MPI program reports the
 *   outcome collectively only after the scan (apps/skel.c, skel_options).
 * - argv is the rank's own: SimGrid 3.32 (src/smpi/internals/smpi_global.cpp,
 *   smpi_run_entry_point) builds for every rank a fresh argv array of
 *   xbt_strdup() copies of the deployment's arguments
 *   (smpi_deployment.cpp, smpi_deployment_get_args: one vector per rank).
 *   So even GNU getopt's permutation would touch one rank's argv only; the
 *   MPI programs parse in order anyway (HNM_OPT_IN_ORDER: no permutation,
 *   an operand ends the options).
 * - smpicc includes smpi_helpers.h, which maps getopt_long to
 *   smpi_getopt_long: that wrapper loads a per-rank saved optind before every
 *   call and saves it after, which would undo the optind = 0 restart (a second
 *   scan in the same rank would start where the first ended). The scan owns
 *   optind for its whole duration, so the plain glibc functions are called
 *   (the #undef below).
 */
#define _GNU_SOURCE /* getopt_long, optind = 0 to restart */
#include "hnm_opt.h"
#include "hnm_msg.h"
#include "hnm_units.h"
#include "hnm_version.h"

#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#undef getopt_long /* see the note at the top */
#undef getopt_long_only

#define OPT__VAL 256 /* getopt value of row i: OPT__VAL + i (above any short letter) */

static int opt__takes_arg(const struct hnm_opt *o)
{
  return o->kind != HNM_OPT_FLAG && !(o->kind == HNM_OPT_CALL && o->arg == NULL);
}

static int opt__in_range(const struct hnm_opt *o, double v)
{
  return (o->min == 0 && o->max == 0) || (v >= o->min && v <= o->max);
}

int hnm_opt_value(const struct hnm_opt *o, const char *text, void *out, char *err, size_t errlen)
{
  double v;
  switch (o->kind) {
    case HNM_OPT_LONG: {
      char *end;
      errno = 0;
      long l = strtol(text, &end, 10);
      if (*text == '\0' || *end != '\0' || (errno != 0 && errno != ERANGE)) {
        hnm_errf(err, errlen, "'%s' is not a whole number", text);
        return -1;
      }
      /* A whole number beyond a long (2^63 or more) is one, out of range. */
      if (errno == ERANGE && o->min == 0 && o->max == 0) {
        hnm_errf(err, errlen, "'%s' is out of range (%ld .. %ld)", text, LONG_MIN, LONG_MAX);
        return -1;
      }
      if (errno == ERANGE || !opt__in_range(o, (double)l)) {
        hnm_errf(err, errlen, "'%s' is not in %.17g .. %.17g", text, o->min, o->max);
        return -1;
      }
      *(long *)out = l;
      return 0;
    }
    case HNM_OPT_NUMBER:
      if (hnm_parse_number(text, &v, err, errlen) != 0)
        return -1;
      break;
    case HNM_OPT_TIME:
      if (hnm_parse_time(text, &v, err, errlen) != 0)
        return -1;
      break;
    case HNM_OPT_SIZE:
      if (hnm_parse_size(text, &v, err, errlen) != 0)
        return -1;
      break;
    case HNM_OPT_BANDWIDTH:
      if (hnm_parse_bandwidth(text, &v, err, errlen) != 0)
        return -1;
      break;
    default:
      hnm_errf(err, errlen, "not a numeric option");
      return -1;
  }
  if (!opt__in_range(o, v)) {
    hnm_errf(err, errlen, "'%s' is not in %.17g .. %.17g%s%s", text, o->min, o->max, o->unit ? " " : "",
             o->unit ? o->unit : "");
    return -1;
  }
  *(double *)out = v;
  return 0;
}

/* How the user writes option o. */
static void opt__spelling(const struct hnm_opt_cmd *cmd, const struct hnm_opt *o, char *buf, size_t len)
{
  snprintf(buf, len, "%s%s", (cmd->flags & HNM_OPT_LONG_ONLY) ? "-" : "--", o->name);
}

/* The index of word text in the '|'-separated list, or -1. */
static int opt__choice(const char *list, const char *text)
{
  size_t len = strlen(text);
  int i = 0;
  for (const char *p = list; p != NULL; i++) {
    const char *bar = strchr(p, '|');
    size_t n = bar != NULL ? (size_t)(bar - p) : strlen(p);
    if (n == len && strncmp(p, text, n) == 0)
      return i;
    p = bar != NULL ? bar + 1 : NULL;
  }
  return -1;
}

/* Apply one value; on failure err holds "--x: reason" (or nothing
 * when a callback reported the error itself). */
static int opt__apply(const struct hnm_opt_cmd *cmd, const struct hnm_opt *o, const char *arg, char *err,
                      size_t errlen)
{
  char reason[512] = "", name[128];
  int rc = 0;
  switch (o->kind) {
    case HNM_OPT_FLAG:
      if (o->value != NULL)
        *(int *)o->value = 1;
      break;
    case HNM_OPT_STRING:
      if (o->value != NULL)
        *(const char **)o->value = arg;
      break;
    case HNM_OPT_CALL:
      rc = o->fn != NULL ? o->fn(cmd->ctx, arg, reason, sizeof reason) : 0;
      break;
    case HNM_OPT_CHOICE: {
      int i = opt__choice(o->unit != NULL ? o->unit : "", arg);
      if (i < 0) {
        hnm_errf(reason, sizeof reason, "'%s' is not one of %s", arg, o->unit != NULL ? o->unit : "");
        rc = -1;
      } else if (o->value != NULL) {
        *(int *)o->value = i;
      }
      break;
    }
    default: {
      long l;
      double d;
      rc = hnm_opt_value(o, arg, o->kind == HNM_OPT_LONG ? (void *)&l : (void *)&d, reason, sizeof reason);
      if (rc == 0 && o->value != NULL) {
        if (o->kind == HNM_OPT_LONG)
          *(long *)o->value = l;
        else
          *(double *)o->value = d;
      }
    }
  }
  if (rc != 0 && reason[0] != '\0') {
    opt__spelling(cmd, o, name, sizeof name);
    hnm_errf(err, errlen, "%s: %s", name, reason);
  }
  return rc;
}

const struct hnm_opt *hnm_opt_find(const struct hnm_opt *opts, const char *name)
{
  for (const struct hnm_opt *o = opts; o->name != NULL; o++)
    if (strcmp(o->name, name) == 0)
      return o;
  return NULL;
}

int hnm_opt_status(int parse_result)
{
  return parse_result == HNM_OPT_DONE || parse_result == HNM_OPT_HELP || parse_result == HNM_OPT_VERSION ? 0 : 2;
}

static void opt__left(const struct hnm_opt_cmd *cmd, const struct hnm_opt *o, char *buf, size_t len)
{
  /* Long options are shown with two dashes even where one is accepted
   * (HNM_OPT_LONG_ONLY, as smpirun's): the help says so in its notes. */
  (void)cmd;
  const char *dash = "--";
  if (o->short_name)
    snprintf(buf, len, "-%c, %s%s%s%s", o->short_name, dash, o->name, opt__takes_arg(o) ? " " : "",
             opt__takes_arg(o) ? o->arg : "");
  else
    snprintf(buf, len, "    %s%s%s%s", dash, o->name, opt__takes_arg(o) ? " " : "", opt__takes_arg(o) ? o->arg : "");
}

void hnm_opt_help(const struct hnm_opt_cmd *cmd, const struct hnm_opt *opts, FILE *out)
{
  static const struct hnm_opt builtin[] = {
    {.name = "help", .short_name = 'h', .kind = HNM_OPT_FLAG, .help = "this help"},
    {.name = "version", .kind = HNM_OPT_FLAG, .help = "print the version"},
    {.name = NULL}};
  char left[160];
  int width = 0;
  const struct hnm_opt *tables[2] = {opts, builtin};

  for (int t = 0; t < 2; t++)
    for (const struct hnm_opt *o = tables[t]; o->name != NULL; o++) {
      opt__left(cmd, o, left, sizeof left);
      if ((int)strlen(left) > width)
        width = (int)strlen(left);
    }
  if (width > 30)
    width = 30;
  fprintf(out, "Usage: %s %s\n", cmd->prog, cmd->usage ? cmd->usage : "[OPTIONS]");
  if (cmd->summary != NULL)
    fprintf(out, "%s\n", cmd->summary);
  fprintf(out, "\nOptions:\n");
  for (int t = 0; t < 2; t++)
    for (const struct hnm_opt *o = tables[t]; o->name != NULL; o++) {
      opt__left(cmd, o, left, sizeof left);
      if ((int)strlen(left) > width)
        fprintf(out, "  %s\n  %-*s  ", left, width, "");
      else
        fprintf(out, "  %-*s  ", width, left);
      for (const char *h = o->help ? o->help : ""; *h != '\0'; h++) {
        fputc(*h, out);
        if (*h == '\n')
          fprintf(out, "  %-*s  ", width, "");
      }
      if (o->unit != NULL && o->def != NULL)
        fprintf(out, " (%s; default %s)", o->unit, o->def);
      else if (o->unit != NULL)
        fprintf(out, " (%s)", o->unit);
      else if (o->def != NULL)
        fprintf(out, " (default %s)", o->def);
      fputc('\n', out);
    }
  if (cmd->epilog != NULL)
    fprintf(out, "\n%s", cmd->epilog);
  if (cmd->notes != NULL)
    cmd->notes(out);
}

int hnm_opt_scan(const struct hnm_opt_cmd *cmd, const struct hnm_opt *opts, int argc, char **argv, char *err,
                 size_t errlen)
{
  size_t n = 0;
  while (opts[n].name != NULL)
    n++;
  struct option *lo = calloc(n + 3, sizeof *lo);
  char *shorts = malloc(3 * n + 8);
  if (lo == NULL || shorts == NULL) {
    free(lo);
    free(shorts);
    hnm_errf(err, errlen, "out of memory");
    return HNM_OPT_ERROR;
  }
  char *s = shorts;
  if (cmd->flags & HNM_OPT_IN_ORDER)
    *s++ = '+';
  *s++ = ':'; /* report a missing argument as ':' */
  *s++ = 'h';
  for (size_t i = 0; i < n; i++) {
    lo[i] = (struct option){opts[i].name, opt__takes_arg(&opts[i]) ? required_argument : no_argument, NULL,
                            OPT__VAL + (int)i};
    if (opts[i].short_name) {
      *s++ = (char)opts[i].short_name;
      if (opt__takes_arg(&opts[i]))
        *s++ = ':';
    }
  }
  *s = '\0';
  lo[n] = (struct option){"help", no_argument, NULL, 'h'};
  lo[n + 1] = (struct option){"version", no_argument, NULL, OPT__VAL + (int)n};
  lo[n + 2] = (struct option){NULL, 0, NULL, 0};

  int rc = 0;
  hnm_errf(err, errlen, "%s", "");
  /* Defaults first, through the same code as the user's values. */
  for (size_t i = 0; i < n && rc == 0; i++)
    if (opts[i].def != NULL && opts[i].kind != HNM_OPT_FLAG && opts[i].kind != HNM_OPT_CALL &&
        opts[i].value != NULL && opt__apply(cmd, &opts[i], opts[i].def, err, errlen) != 0)
      rc = HNM_OPT_ERROR;

  optind = 0; /* glibc: start afresh (several parses per process) */
  opterr = 0;
  while (rc == 0) {
    int c = (cmd->flags & HNM_OPT_LONG_ONLY) ? getopt_long_only(argc, argv, shorts, lo, NULL)
                                             : getopt_long(argc, argv, shorts, lo, NULL);
    if (c == -1)
      break;
    const struct hnm_opt *o = NULL;
    if (c >= OPT__VAL && c < OPT__VAL + (int)n)
      o = &opts[c - OPT__VAL];
    else if (c != 'h' && c != '?' && c != ':' && c != OPT__VAL + (int)n)
      for (size_t i = 0; i < n && o == NULL; i++)
        if (opts[i].short_name == c)
          o = &opts[i];
    if (c == 'h') {
      rc = HNM_OPT_HELP;
    } else if (c == OPT__VAL + (int)n) {
      rc = HNM_OPT_VERSION;
    } else if (c == '?' || c == ':') {
      char name[256];
      char unknown[160];
      snprintf(unknown, sizeof unknown, "unknown or ambiguous option (see %s --help)", cmd->prog);
      const char *what = c == ':' ? "needs an argument" : unknown;
      if (optopt >= OPT__VAL && optopt < OPT__VAL + (int)n + 1) {
        if (optopt == OPT__VAL + (int)n)
          snprintf(name, sizeof name, "--version");
        else
          opt__spelling(cmd, &opts[optopt - OPT__VAL], name, sizeof name);
        if (c == '?')
          what = "takes no argument";
      } else if (optopt > 0 && optopt < OPT__VAL) {
        snprintf(name, sizeof name, "-%c", optopt);
      } else {
        const char *a = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
        snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
      }
      hnm_errf(err, errlen, "%s: %s", name, what);
      rc = HNM_OPT_ERROR;
    } else if (o != NULL) {
      if (opt__apply(cmd, o, opt__takes_arg(o) ? optarg : NULL, err, errlen) != 0)
        rc = HNM_OPT_ERROR;
    }
  }
  free(lo);
  free(shorts);
  return rc != 0 ? rc : optind;
}

int hnm_opt_parse(const struct hnm_opt_cmd *cmd, const struct hnm_opt *opts, int argc, char **argv, char *err,
                  size_t errlen)
{
  char why[HNM_ERRLEN] = "";
  int rc = hnm_opt_scan(cmd, opts, argc, argv, why, sizeof why);
  if (rc == HNM_OPT_HELP) {
    hnm_opt_help(cmd, opts, stdout);
    return HNM_OPT_DONE;
  }
  if (rc == HNM_OPT_VERSION) {
    printf("%s %s\n", hnm_msg_prog(), HNM_VERSION);
    return HNM_OPT_DONE;
  }
  if (rc == HNM_OPT_ERROR)
    hnm_errf(err, errlen, "%s", why[0] != '\0' ? why : "invalid option");
  return rc;
}

void hnm_opt_tool_help(const struct hnm_opt_tool *tool, const struct hnm_opt_command *cmds, FILE *out)
{
  int width = 0, lines = 0;
  for (const struct hnm_opt_command *c = cmds; c->name != NULL; c++)
    if ((int)strlen(c->name) > width)
      width = (int)strlen(c->name);
  for (const struct hnm_opt_command *c = cmds; c->name != NULL; c++)
    if (c->usage != NULL)
      fprintf(out, "%s %s %-*s %s\n", lines++ == 0 ? "Usage:" : "      ", tool->prog, width, c->name, c->usage);
  if (lines == 0)
    fprintf(out, "Usage: %s %s [OPTIONS]\n", tool->prog, tool->metavar);
  if (tool->summary != NULL)
    fprintf(out, "%s\n", tool->summary);
  fprintf(out, "\n%s:\n", tool->heading);
  for (const struct hnm_opt_command *c = cmds; c->name != NULL; c++)
    fprintf(out, "  %-*s  %s\n", width, c->name, c->summary != NULL ? c->summary : "");
  fprintf(out, "\n  -h, --help   this help; %s %s --help: every option, its unit and default\n", tool->prog,
          tool->metavar);
  fprintf(out, "  --version    print the version\n");
  if (tool->epilog != NULL)
    fprintf(out, "\n%s", tool->epilog);
  if (tool->notes != NULL)
    tool->notes(out);
}

int hnm_opt_command(const struct hnm_opt_tool *tool, const struct hnm_opt_command *cmds, int argc, char **argv,
                    char *err, size_t errlen)
{
  char names[512] = "";
  size_t used = 0;
  for (int i = 0; cmds[i].name != NULL; i++) {
    int n = snprintf(names + used, sizeof names - used, "%s%s", i > 0 ? ", " : "", cmds[i].name);
    if (n > 0 && (size_t)n < sizeof names - used)
      used += (size_t)n;
  }
  char what[64];
  snprintf(what, sizeof what, "%s", tool->metavar);
  for (char *w = what; *w != '\0'; w++)
    *w = (char)(*w >= 'A' && *w <= 'Z' ? *w - 'A' + 'a' : *w);
  if (argc < 2) {
    /* An error is one line; the usage is what --help is for. */
    hnm_errf(err, errlen, "a %s is needed (%s; see %s --help)", what, names, tool->prog);
    return HNM_OPT_ERROR;
  }
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    hnm_opt_tool_help(tool, cmds, stdout);
    return HNM_OPT_DONE;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("%s %s\n", tool->prog, HNM_VERSION);
    return HNM_OPT_DONE;
  }
  for (int i = 0; cmds[i].name != NULL; i++)
    if (strcmp(argv[1], cmds[i].name) == 0)
      return i;
  hnm_errf(err, errlen, "unknown %s '%s' (%s; see %s --help)", what, argv[1], names, tool->prog);
  return HNM_OPT_ERROR;
}
