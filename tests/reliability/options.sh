#!/usr/bin/env bash
# Every tool's command line comes from its option table (core/hnm_opt.h):
# --help exits 0 with a usage line and lists each option of the table;
# --version prints the one version CMake configured; an unknown option or a
# missing argument is one line "TOOL: option '--x': reason", exit 2. hnm-run
# reads its own options anywhere before the program (hnm-run -np 2 --dry-run
# PROG is a dry run, not a run of the program "--dry-run"), refuses --model
# twice, and passes smpirun's options through in order.
# Environment: HNM_PLATFORM, HNM_ROUTE, HNM_CALIBRATE, HNM_COMPARE, HNM_RUN,
# CMP_BIN, HNM_VERSION_EXPECTED.
source "$(dirname "$0")/../sim/lib.sh"
set +e
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
T=30
PROG=$CMP_BIN/sendrecv

# cmdline NAME: the tool (and subcommand) NAME.
declare -A CMD=(
  [hnm-run]="$HNM_RUN"
  [hnm-route]="$HNM_ROUTE"
  [hnm-platform]="$HNM_PLATFORM torus"
  [hnm-calibrate]="$HNM_CALIBRATE fit"
  [hnm-compare]="$HNM_COMPARE run"
)
# One option of each table, as --help must list it.
declare -A OPT=(
  [hnm-run]="--model SPEC"
  [hnm-route]="--lp-time-limit S"
  [hnm-platform]="--loopback-bw BANDWIDTH"
  [hnm-calibrate]="--max-segments N"
  [hnm-compare]="--timeout SEC"
)
for t in hnm-run hnm-route hnm-platform hnm-calibrate hnm-compare; do
  out=$(timeout $T ${CMD[$t]} --help 2>&1)
  check "$t --help: exit 0" [ $? -eq 0 ]
  check "$t --help: usage line" grep -q "^Usage: $t" <<<"$out"
  check "$t --help: lists '${OPT[$t]}'" grep -qF -- "${OPT[$t]}" <<<"$out"
  check "$t --help: lists --version" grep -qF -- "--version" <<<"$out"
  v=$(timeout $T ${CMD[$t]} --version 2>&1)
  check "$t --version: '$t $HNM_VERSION_EXPECTED' (got '$v')" [ "$v" = "$t $HNM_VERSION_EXPECTED" ]
  timeout $T ${CMD[$t]} --bogus-option 1 > out.txt 2> err.txt
  st=$?
  check "$t --bogus-option: exit 2 (got $st)" [ $st -eq 2 ]
  check "$t --bogus-option: one line ($(cat err.txt))" [ "$(wc -l < err.txt)" -eq 1 ]
  check "$t --bogus-option: names the option ($(cat err.txt))" grep -q "^$t: option '--bogus-option': unknown" err.txt
done
# A missing argument, and a typed value out of its range.
timeout $T "$HNM_ROUTE" --shape 512 --pattern subset --k > /dev/null 2> err.txt
st=$?
check "hnm-route --k: exit 2, needs an argument ($(cat err.txt))" [ $st -eq 2 ]
check "hnm-route --k: exit 2, needs an argument ($(cat err.txt))" grep -qx "hnm-route: option '--k': needs an argument" err.txt
timeout $T "$HNM_ROUTE" --shape 512 --pattern subset --k 1001 > /dev/null 2> err.txt
st=$?
check "hnm-route --k 1001: out of range ($(cat err.txt))" [ $st -eq 2 ]
check "hnm-route --k 1001: out of range ($(cat err.txt))" grep -qx "hnm-route: option '--k': '1001' is not in 1 .. 1000" err.txt
timeout $T "$HNM_ROUTE" --shape 512 --pattern subset --bw 10 > /dev/null 2> err.txt
st=$?
check "hnm-route --bw 10: a bandwidth needs a unit ($(cat err.txt))" [ $st -eq 2 ]
check "hnm-route --bw 10: a bandwidth needs a unit ($(cat err.txt))" grep -q "^hnm-route: option '--bw': '10' has no unit" err.txt

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
timeout $T "$HNM_RUN" --model fluid --model loggps --dry-run -np 2 "$PROG" > /dev/null 2> err.txt
st=$?
check "hnm-run --model twice: exit 2 ($(cat err.txt))" [ $st -eq 2 ]
check "hnm-run --model twice: the message ($(cat err.txt))" grep -qx "hnm-run: option '--model': given twice ('fluid', then 'loggps')" err.txt
finish
