/* hnm_opt.h -- command-line options from one table, on libc's getopt_long.
 *
 * Each option is one row: long name, optional short letter, the kind of its
 * argument (with units read by hnm_units: 1.5us, 64KiB, 10Gbps), default,
 * unit, one help line, and where the value goes. The same table produces the
 * --help text, so the documentation of an option cannot drift from what is
 * parsed. -h/--help and --version are added to every table.
 *
 *   long np = 0; const char *out = NULL; double lat;
 *   const struct hnm_opt opts[] = {
 *     {"np", 0, HNM_OPT_LONG, "N", "2", NULL, "MPI ranks", &np, 1, 1e6},
 *     {"output", 'o', HNM_OPT_STRING, "FILE", NULL, NULL, "write to FILE", &out},
 *     {"lat", 0, HNM_OPT_TIME, "TIME", "1us", "s", "link latency", &lat},
 *     {NULL}};
 *   const struct hnm_opt_cmd cmd = {"hnm-x", "[OPTIONS] FILE...", "What it does."};
 *   int first = hnm_opt_parse(&cmd, opts, argc, argv);
 *   if (first < 0)
 *     return hnm_opt_status(first);   (0 after --help/--version, 2 on error)
 *
 * Defaults are parsed exactly like a user's value before argv is read.
 * Errors are one line on stderr, "PROG: --x: 'VALUE' reason" (PROG from
 * hnm_msg_init()), and parsing stops.
 */
#ifndef HNM_OPT_H
#define HNM_OPT_H

#include "hnm_error.h"

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum hnm_opt_kind {
  HNM_OPT_FLAG,      /* no argument; value: int *, set to 1 */
  HNM_OPT_STRING,    /* value: const char **, the argument as given */
  HNM_OPT_LONG,      /* value: long *, a whole number in [min, max] */
  HNM_OPT_NUMBER,    /* value: double *, a plain finite number in [min, max] */
  HNM_OPT_TIME,      /* value: double *, seconds (hnm_parse_time), in [min, max] */
  HNM_OPT_SIZE,      /* value: double *, bytes (hnm_parse_size), in [min, max] */
  HNM_OPT_BANDWIDTH, /* value: double *, bytes/s (hnm_parse_bandwidth), in [min, max] */
  HNM_OPT_CALL,      /* fn(ctx, argument) does the work; no argument when arg is NULL */
  HNM_OPT_CHOICE     /* value: int *, the index of the argument in unit, which lists
                        the accepted words separated by '|' ("mpi|ring"; --help shows it) */
};

struct hnm_opt {
  const char *name;       /* long name without "--"; NULL ends the table */
  int short_name;         /* 'o', or 0 for none */
  enum hnm_opt_kind kind;
  const char *arg;        /* name of the argument in --help ("FILE"); NULL: none */
  const char *def;        /* default, parsed like a user's value; NULL: none */
  const char *unit;       /* unit shown in --help ("bytes/s"), or NULL */
  const char *help;       /* one line (a '\n' continues it, indented, on the next) */
  void *value;            /* where the value goes (see the kinds); may be NULL */
  double min, max;        /* accepted range of numbers; min == max == 0: any */
  /* HNM_OPT_CALL: called with the argument (NULL when the option takes
   * none); returns 0, or -1 with a reason in err (the parser's error
   * becomes "--x: reason"). A callback never prints. */
  int (*fn)(void *ctx, const char *arg, char *err, size_t errlen);
};

enum {
  HNM_OPT_IN_ORDER = 1,  /* stop at the first operand (getopt's "+"): what follows is not ours */
  HNM_OPT_LONG_ONLY = 2  /* also accept -name for --name (getopt_long_only), e.g. -np */
};

struct hnm_opt_cmd {
  const char *prog;     /* as shown in "Usage: PROG ..." ("hnm-compare run") */
  const char *usage;    /* what follows PROG in the usage line */
  const char *summary;  /* a paragraph after the usage line, or NULL */
  const char *epilog;   /* text after the option list, or NULL */
  void (*notes)(FILE *out); /* more text after the epilog, or NULL */
  int flags;            /* HNM_OPT_IN_ORDER | HNM_OPT_LONG_ONLY */
  void *ctx;            /* passed to the fn of HNM_OPT_CALL options */
};

#define HNM_OPT_DONE (-1)    /* --help or --version was printed: exit 0 */
#define HNM_OPT_ERROR (-2)   /* an error, described in err: exit 2 */
#define HNM_OPT_HELP (-3)    /* hnm_opt_scan: --help or -h was given: print hnm_opt_help() */
#define HNM_OPT_VERSION (-4) /* hnm_opt_scan: --version was given */

/* Parse argv[1..argc) with the table (argv[0] is skipped, as getopt does).
 * Returns the index of the first operand (argc if none; argv may have been
 * permuted unless HNM_OPT_IN_ORDER, operands then come last), HNM_OPT_DONE
 * after printing the --help or --version asked for on standard output, or
 * HNM_OPT_ERROR with the reason in err ("--x: reason"). */
int hnm_opt_parse(const struct hnm_opt_cmd *cmd, const struct hnm_opt *opts, int argc, char **argv, char *err,
                  size_t errlen);

/* hnm_opt_parse() without printing anything, for callers that decide who
 * prints (an MPI program prints on rank 0 only): returns the index of the
 * first operand, HNM_OPT_HELP, HNM_OPT_VERSION, or HNM_OPT_ERROR with the
 * reason in err as "--x: reason" (no PROG). Uses no global state
 * of its own and calls nothing that could switch SMPI ranks: see the note at
 * the top of hnm_opt.c on getopt_long's global state. */
int hnm_opt_scan(const struct hnm_opt_cmd *cmd, const struct hnm_opt *opts, int argc, char **argv, char *err,
                 size_t errlen);

/* The exit status for a negative hnm_opt_parse() result. */
int hnm_opt_status(int parse_result);

/* The --help text of a table. */
void hnm_opt_help(const struct hnm_opt_cmd *cmd, const struct hnm_opt *opts, FILE *out);

/* The row of long option NAME (without dashes), or NULL. */
const struct hnm_opt *hnm_opt_find(const struct hnm_opt *opts, const char *name);

/* Parse one value of a numeric kind (LONG .. BANDWIDTH) into *out (a long
 * for HNM_OPT_LONG, else a double), range-checked by min/max of the row. */
int hnm_opt_value(const struct hnm_opt *o, const char *text, void *out, char *err, size_t errlen);

/* Tools of several commands ("hnm-compare run ...", "hnm-platform torus
 * ..."): one row per command, and the tool's own --help generated from the
 * rows, as each command's --help is from its option table. */
struct hnm_opt_command {
  const char *name;    /* "run"; NULL ends the table */
  const char *usage;   /* what follows "PROG NAME" in a usage line, or NULL (no line of its own) */
  const char *summary; /* one line */
};

struct hnm_opt_tool {
  const char *prog;      /* "hnm-compare" */
  const char *metavar;   /* how --help names a command: "COMMAND", "FAMILY" */
  const char *heading;   /* title of the list: "Commands", "Families" */
  const char *summary;   /* a paragraph after the usage lines, or NULL */
  const char *epilog;    /* text after the list, or NULL */
  void (*notes)(FILE *out); /* more text after the epilog, or NULL */
};

/* The command named by argv[1]: its index in cmds; or HNM_OPT_DONE after
 * printing the tool's --help (-h, --help) or version (--version) on
 * standard output; or HNM_OPT_ERROR with one line in err: "a command is
 * needed (a, b, c; see PROG --help)" or "unknown command 'X' (...)". */
int hnm_opt_command(const struct hnm_opt_tool *tool, const struct hnm_opt_command *cmds, int argc, char **argv,
                    char *err, size_t errlen);

/* The tool's --help: usage lines (one per command with a usage, else
 * "PROG METAVAR [OPTIONS]"), summary, the commands and their summaries,
 * -h/--help and --version, epilog, notes. */
void hnm_opt_tool_help(const struct hnm_opt_tool *tool, const struct hnm_opt_command *cmds, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* HNM_OPT_H */
