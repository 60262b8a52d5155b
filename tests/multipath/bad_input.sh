#!/usr/bin/env bash
# hnm-route refuses bad input: exit status 2, exactly one line on stderr
# naming the option, or FILE:LINE and field, nothing on stdout, and no path
# file (nor temporary) left behind. Environment: HNM_ROUTE.
source "$(dirname "$0")/../sim/lib.sh"
work=$WORK

# refused PATTERN ARGS...: hnm-route ARGS --paths $WORK/out/p.txt, run in
# $WORK, refuses (tool_refuses, tests/lib.sh).
refused() { tool_refuses hnm-route "$1" "$HNM_ROUTE" "${@:2}" --paths "$WORK/out/p.txt"; }
cd "$WORK" || exit 1

# Shapes: 5 positive dimensions, E = 2.
refused "--shape: '4x4x4x4': 4 dimensions, a BG/Q shape has 5" --shape 4x4x4x4 --pattern subset
refused "--shape: '4x4x4x4x2x2': more than 5 dimensions" --shape 4x4x4x4x2x2 --pattern subset
refused "--shape: '4x0x4x4x2': dimension 2 is 0$" --shape 4x0x4x4x2 --pattern subset
refused "--shape: '4x-4x4x4x2': dimension 2 is negative$" --shape 4x-4x4x4x2 --pattern subset
refused "--shape: '4x4x4x4x3': E is 3" --shape 4x4x4x4x3 --pattern subset
refused "--shape: '300' is neither a named shape" --shape 300 --pattern subset
refused "--shape: dimension 1 is 200, hnm-route takes 1 to 128" --shape 200x4x4x4x2 --pattern subset
refused "--shape: missing" --pattern subset
# Patterns and options.
refused "--pattern: 'alltoall' is not a pattern" --shape 512 --pattern alltoall
refused "--pattern: give exactly one of" --shape 512
refused "--pattern: give exactly one of" --shape 512 --pattern subset --pattern-file x
refused "--bytes: " --shape 512 --pattern subset --bytes 8XB
refused "--bytes: must be positive" --shape 512 --pattern subset --bytes -1
refused "--bw: 1e\+300Bps is above 1e\+15Bps \(not a link's bandwidth" --shape 512 --pattern subset --bw 1e300Bps
refused "--sources: '600' is not in 1 .. 512" --shape 512 --pattern subset --sources 600
refused "--dests: 300 sources and 300 destinations do not fit disjoint" --shape 512 --pattern disjoint --sources 300 --dests 300
refused "--overlap: '200' is more than the sources" --shape 512 --pattern overlap --overlap 200
refused "--group: '1' is not in 2 .. 512" --shape 512 --pattern aggregation --group 1
refused "--k: '0' is not in 1 .. 1000" --shape 512 --pattern subset --k 0
refused "--slack: 'x' is not a whole number" --shape 512 --pattern subset --slack x
refused "--usable: '1.5' is not in \(0, 1\]" --shape 512 --pattern subset --usable 1.5
refused "--bw: " --shape 512 --pattern subset --bw 2
refused "--lp-time-limit: '-1' is not" --shape 512 --pattern subset --lp-time-limit -1
refused "--frobnicate: unknown" --shape 512 --pattern subset --frobnicate
refused "--pattern-file: --bytes, --sources" --shape 512 --pattern-file x --bytes 1
refused "--pattern-file: 'nonexistent': cannot open: No such file" --shape 512 --pattern-file nonexistent
# Pattern files: FILE:LINE: field. file_refused NAME CONTENT PATTERN: a
# pattern file NAME holding CONTENT (printf's escapes) is refused, the
# message "hnm-route: NAME:PATTERN".
file_refused() {
  printf -- "$2" >"$work/$1"
  refused "$1:$3" --shape 512 --pattern-file "$1"
}
file_refused unknown.txt '0 1 8MiB\n# comment\n\n3 512 1\n' "4: dst: '512' is not a node of the partition \(ranks 0 .. 511\)$"
file_refused unknown2.txt '-1 1 8MiB\n' "1: src: '-1' is not a node"
file_refused neg.txt '0 1 8MiB\n2 3 -5\n' "2: bytes: '-5' is negative$"
file_refused zero.txt '0 1 0\n' "1: bytes: '0' must be positive$"
file_refused unit.txt '0 1 8Mx\n' "1: bytes: "
file_refused dup.txt '0 1 8MiB\n2 3 1\n0 1 5\n' "3: src dst: pair 0 1 already given on line 1"
file_refused self.txt '4 4 1\n' "1: dst: 4 is the source itself$"
file_refused short.txt '4 5\n' "1: bytes: missing"
file_refused long.txt '4 5 1 7\n' "1: more than 3 fields"
file_refused empty.txt '# nothing\n' "1: no pair"
# A missing directory for --paths.
out=$("$HNM_ROUTE" --shape 512 --pattern subset --paths "$work/none/p.txt" 2>"$work/err")
st=$?
check_eq "--paths in a missing directory: exit status" "$st" 2
check "--paths in a missing directory: message" grep -qE "^hnm-route: --paths: '.*none/p.txt': cannot create: No such file" "$work/err"
# GLPK failures are reported as such, never as a result: a time limit GLPK
# cannot meet (the 2048-node subset LP takes about 0.1 s) ends with exit
# status 1, one line, no CSV and no path file.
out=$("$HNM_ROUTE" --shape 2048 --pattern subset --lp-time-limit 0.001 --csv --paths "$work/tl.txt" 2>"$work/err")
st=$?
check_eq "GLPK time limit: exit status" "$st" 1
check "GLPK time limit: message (got: $(cat "$work/err"))" grep -qxE "hnm-route: LP: GLPK: time limit of 0.001 s reached \(--lp-time-limit\)" "$work/err"
check "GLPK time limit: nothing on stdout" [ -z "$out" ]
check "GLPK time limit: no path file" [ -z "$(ls -A "$work" | grep tl.txt)" ]
# --paths onto the pattern it reads, directly or through a symbolic or a
# hard link: refused, the pattern byte-identical.
printf '0 1 8MiB\n' >"$work/pat.txt"
ln -s pat.txt "$work/pat-sym.txt"
ln "$work/pat.txt" "$work/pat-hard.txt"
for out in pat.txt pat-sym.txt pat-hard.txt; do
  refuse "--paths is the --pattern-file ($out)" \
    "^hnm-route: --paths: '$out' is --pattern-file 'pat\.txt': writing it would destroy it$" \
    "$HNM_ROUTE" --shape 512 --pattern-file pat.txt --k 2 --paths "$out"
done
check_eq "--paths is the --pattern-file: the pattern intact" "$(cat "$work/pat.txt")" "0 1 8MiB"
# --help and --version answer on stdout.
check "--help" bash -c '"$HNM_ROUTE" --help | grep -q "^Usage: hnm-route"'
check "--version" bash -c '"$HNM_ROUTE" --version | grep -q "^hnm-route "'
finish
