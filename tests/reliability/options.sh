#!/usr/bin/env bash
# Every tool's command line comes from its option table (core/hnm_opt.h):
# --help exits 0 with a usage line and lists each option of the table;
# --version prints the one version CMake configured; an unknown option or a
# missing argument is one line "TOOL: --x: reason", exit 2. hnm-run
# reads its own options anywhere before the program (hnm-run -np 2 --dry-run
# PROG is a dry run, not a run of the program "--dry-run"), refuses --model
# twice, and passes smpirun's options through in order. The tools of several
# commands (hnm-compare, hnm-calibrate, hnm-platform, hnm-linkplot) list them from their
# command table: --help names every command with its one-line summary and
# how to get a command's own --help; no command: one line naming the
# commands and pointing to --help, exit 2; an unknown command: one line naming it and the commands, exit 2.
# Environment: HNM_PLATFORM, HNM_ROUTE, HNM_CALIBRATE, HNM_COMPARE, HNM_RUN,
# HNM_LINKPLOT, HNM_HOSTS, CMP_BIN, HNM_VERSION_EXPECTED.
source "$(dirname "$0")/../sim/lib.sh"
cd "$WORK"
T=30
PROG=$CMP_BIN/sendrecv

# Each tool: its name, its command line (with a command for the tools of
# several), one option of its table as --help must list it.
while IFS='|' read -r -u 3 t cmd opt; do
  # shellcheck disable=SC2086
  out=$(timeout $T $cmd --help 2>&1)
  st=$?
  check_eq "$t --help: exit status" "$st" 0
  check "$t --help: usage line" grep -q "^Usage: $t" <<<"$out"
  check "$t --help: lists '$opt'" grep -qF -- "$opt" <<<"$out"
  check "$t --help: lists --version" grep -qF -- "--version" <<<"$out"
  # shellcheck disable=SC2086
  v=$(timeout $T $cmd --version 2>&1)
  check "$t --version: '$t $HNM_VERSION_EXPECTED' (got '$v')" [ "$v" = "$t $HNM_VERSION_EXPECTED" ]
  # shellcheck disable=SC2086
  timeout $T $cmd --bogus-option 1 > out.txt 2> err.txt
  st=$?
  check "$t --bogus-option: exit 2 (got $st)" [ $st -eq 2 ]
  check "$t --bogus-option: one line ($(cat err.txt))" [ "$(wc -l < err.txt)" -eq 1 ]
  check "$t --bogus-option: names the option ($(cat err.txt))" grep -q "^$t: --bogus-option: unknown" err.txt
done 3<<EOF
hnm-run|$HNM_RUN|--model SPEC
hnm-route|$HNM_ROUTE|--lp-time-limit S
hnm-platform|$HNM_PLATFORM torus|--loopback-bw BANDWIDTH
hnm-calibrate|$HNM_CALIBRATE fit|--max-segments N
hnm-compare|$HNM_COMPARE run|--timeout SEC
hnm-linkplot|$HNM_LINKPLOT map|--metric WHICH
hnm-hosts|$HNM_HOSTS|Usage: hnm-hosts PLATFORM
EOF
# A missing argument, and a typed value out of its range.
refuse "hnm-route --k: needs an argument" "^hnm-route: --k: needs an argument\$" \
  timeout $T "$HNM_ROUTE" --shape 512 --pattern subset --k
refuse "hnm-route --k 1001: out of range" "^hnm-route: --k: '1001' is not in 1 \\.\\. 1000\$" \
  timeout $T "$HNM_ROUTE" --shape 512 --pattern subset --k 1001
refuse "hnm-route --bw 10: a bandwidth needs a unit" "^hnm-route: --bw: '10' has no unit" \
  timeout $T "$HNM_ROUTE" --shape 512 --pattern subset --bw 10

# hnm-run: its options anywhere before the program.
out=$(timeout $T "$HNM_RUN" -np 2 --dry-run "$PROG" --bytes 10 2> err.txt)
st=$?
check "hnm-run -np 2 --dry-run PROG: exit 0 ($(cat err.txt))" [ $st -eq 0 ]
check "hnm-run -np 2 --dry-run PROG: prints the smpirun command" grep -q "^smpirun .* -np 2 $PROG --bytes 10\$" <<<"$out"
out=$(timeout $T "$HNM_RUN" --dry-run -np 2 "$PROG" --dry-run 2> err.txt)
check "hnm-run: --dry-run after the program belongs to the program" grep -q " $PROG --dry-run\$" <<<"$out"
out=$(timeout $T "$HNM_RUN" -np 2 --model fluid --cfg=smpi/wtime:0 --dry-run "$PROG" 2> err.txt)
check "hnm-run: smpirun's options kept in order, --model read after them" \
  grep -q -- "--cfg=hnm/model:fluid -np 2 --cfg=smpi/wtime:0 $PROG\$" <<<"$out"
out=$(timeout $T "$HNM_RUN" --dry-run -- -np 2 "$PROG" 2> err.txt)
check "hnm-run: after --, smpirun's" grep -q -- "-np 2 $PROG\$" <<<"$out"
refuse "hnm-run --model twice" "^$(ere_quote "hnm-run: --model: given twice ('fluid', then 'loggps')")\$" \
  timeout $T "$HNM_RUN" --model fluid --model loggps --dry-run -np 2 "$PROG"
# The tools of several commands: their own --help from the command table.
declare -A TOOL=([hnm-compare]="$HNM_COMPARE" [hnm-calibrate]="$HNM_CALIBRATE" [hnm-platform]="$HNM_PLATFORM"
                 [hnm-linkplot]="$HNM_LINKPLOT")
declare -A COMMANDS=([hnm-compare]="run slurm merge plot" [hnm-calibrate]="run fit compare export import machine"
                     [hnm-platform]="cluster torus fattree dragonfly bgq" [hnm-linkplot]="map dist")
declare -A METAVAR=([hnm-compare]=COMMAND [hnm-calibrate]=COMMAND [hnm-platform]=FAMILY [hnm-linkplot]=COMMAND)
declare -A HEADING=([hnm-compare]=Commands [hnm-calibrate]=Commands [hnm-platform]=Families [hnm-linkplot]=Commands)
for t in hnm-compare hnm-calibrate hnm-platform hnm-linkplot; do
  for h in --help -h; do
    timeout $T ${TOOL[$t]} $h > out.txt 2> err.txt
    st=$?
    check "$t $h: exit 0 (got $st), nothing on stderr" [ $st -eq 0 -a ! -s err.txt ]
    check "$t $h: usage line first" grep -q "^Usage: $t " <(head -n 1 out.txt)
    check "$t $h: '${HEADING[$t]}:' heading" grep -qx "${HEADING[$t]}:" out.txt
    names=$(sed -n "/^${HEADING[$t]}:\$/,/^\$/p" out.txt | sed -n 's/^  \([a-z]*\)  .*/\1/p' | tr '\n' ' ')
    check "$t $h: lists exactly '${COMMANDS[$t]}' (got '$names')" [ "$names" = "${COMMANDS[$t]} " ]
    check "$t $h: points to the commands' --help" \
      grep -qxF -- "  -h, --help   this help; $t ${METAVAR[$t]} --help: every option, its unit and default" out.txt
    check "$t $h: --version line" grep -qE -- '^  --version +print the version$' out.txt
  done
  list=$(sed 's/ /, /g' <<<"${COMMANDS[$t]}")
  metavar=$(tr 'A-Z' 'a-z' <<<"${METAVAR[$t]}")
  # shellcheck disable=SC2086
  refuse "$t without a command" "^$(ere_quote "$t: a $metavar is needed ($list; see $t --help)")\$" \
    timeout $T ${TOOL[$t]}
  # shellcheck disable=SC2086
  refuse "$t frobnicate" "^$(ere_quote "$t: unknown $metavar 'frobnicate' ($list; see $t --help)")\$" \
    timeout $T ${TOOL[$t]} frobnicate
done
# hnm-hosts without its platform, or with two: one line, exit 2.
for args in "" "a.xml b.xml"; do
  # shellcheck disable=SC2086
  refuse "hnm-hosts ${args:-without a platform}" "^hnm-hosts: one platform file is needed" \
    timeout $T "$HNM_HOSTS" $args
done
# Each command's summary in --help is the table's (one example per tool).
check "hnm-compare --help: merge's summary" \
  grep -qxF "  merge  the per-task CSVs into one: sorted by index, duplicates dropped" <("$HNM_COMPARE" --help)
check "hnm-platform --help: bgq's summary" \
  grep -qxF "  bgq        Blue Gene/Q partition: 5D torus AxBxCxDxE, BG/Q routing order and rank mapping" \
  <("$HNM_PLATFORM" --help)
finish
