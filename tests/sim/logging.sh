#!/usr/bin/env bash
# The plugin speaks through SimGrid's logging (plugin/hnm_log.hpp): its
# lines keep the form "hnm: ...", --log=hnm.thres:critical silences its
# info output (not its fatal errors), --log=hnm_trace.thres:verbose (or
# HNM_VERBOSE=2) shows one line per LogGPS message, and SimGrid's own
# threshold (root) does not hide it. The link-load settings are SimGrid
# flags whose validators refuse a bad value with exit 2 before anything is
# simulated.
source "$(dirname "$0")/lib.sh"

TWO=("$DATA/platforms/two.xml" "$DATA/platforms/two.hosts" 2)
PROG=("$SIM_BIN/p2p_timing" 1000:0:0)

# run NAME MODEL [OPTIONS...]: stdout in WORK/NAME.out, stderr in
# WORK/NAME.err, the exit status in WORK/NAME.st.
run() {
  local name=$1 model=$2
  shift 2
  hnm "$model" "${TWO[@]}" "$@" "${PROG[@]}" >"$WORK/$name.out" 2>"$WORK/$name.err"
  echo $? >"$WORK/$name.st"
}
hnm_lines() { grep -c '^hnm: ' "$WORK/$1.err" || true; }

# Info output: the installed model, with hnm/verbose, under SIMOPTS'
# --log=root.thres:warning; silenced by --log=hnm.thres:critical.
run verbose graphene --cfg=hnm/verbose:1
check "hnm/verbose: 'hnm: model ... installed' (got: $(head -c 300 "$WORK/verbose.err"))" \
  grep -qx "hnm: model 'graphene' installed (2 node limiter links)" "$WORK/verbose.err"
run quiet graphene --cfg=hnm/verbose:1 --log=hnm.thres:critical
check "--log=hnm.thres:critical: no hnm line (got $(hnm_lines quiet))" [ "$(hnm_lines quiet)" -eq 0 ]
check "--log=hnm.thres:critical: the simulation ran" grep -q '^send 1000 ' "$WORK/quiet.out"
check "... and gave the same time" [ "$(cat "$WORK/quiet.out")" = "$(cat "$WORK/verbose.out")" ]

# Fatal errors stay: one line, exit 2, whatever the threshold. The plugin's
# own validator, under smpirun (hnm-run refuses the value before SimGrid
# sees it: run_cfg.sh).
plugin=$("$HNM_RUN" --model graphene --dry-run -np 2 "${PROG[@]}" | sed -n "s/.*LD_PRELOAD=\([^ ']*\).*/\1/p")
# smpirun_plugin NAME OPTIONS...: as run, through smpirun with the plugin
# and graphene, without hnm-run.
smpirun_plugin() {
  local name=$1
  shift
  env -u HNM_MODEL smpirun -wrapper "env LD_PRELOAD=$plugin" -platform "${TWO[0]}" -hostfile "${TWO[1]}" -np 2 \
    "${SIMOPTS[@]}" --cfg=hnm/model:graphene "$@" "${PROG[@]}" >"$WORK/$name.out" 2>"$WORK/$name.err"
  echo $? >"$WORK/$name.st"
}
smpirun_plugin fatal --cfg=hnm/seed:abc --log=hnm.thres:critical
check "a fatal error under hnm.thres:critical: exit 2 (got $(cat "$WORK/fatal.st"))" [ "$(cat "$WORK/fatal.st")" -eq 2 ]
check "... one hnm line naming the flag (got: $(head -c 300 "$WORK/fatal.err"))" \
  [ "$(grep -c '^hnm: --cfg=hnm/seed:abc: not a whole number' "$WORK/fatal.err")" -eq 1 -a "$(hnm_lines fatal)" -eq 1 ]

# The trace: one line per LogGPS message, off by default.
run notrace loggps
check "no trace by default (got $(grep -c '^hnm: message' "$WORK/notrace.err"))" \
  [ "$(grep -c '^hnm: message' "$WORK/notrace.err" || true)" -eq 0 ]
run trace loggps --log=hnm_trace.thres:verbose
check "--log=hnm_trace.thres:verbose: the message's line (got: $(head -c 300 "$WORK/trace.err"))" \
  grep -Eq '^hnm: message n-0 -> n-1, 1000 bytes: starts [0-9.e+-]+, delivered [0-9.e+-]+$' "$WORK/trace.err"
HNM_VERBOSE=2 hnm loggps "${TWO[@]}" "${PROG[@]}" >/dev/null 2>"$WORK/env.err"
check "HNM_VERBOSE=2, the fallback: the same trace" \
  [ "$(grep '^hnm: message' "$WORK/env.err")" = "$(grep '^hnm: message' "$WORK/trace.err")" ]

# The link-load flags: a good value writes the file; a bad one is refused
# by its validator, exit 2, one line of hnm's, nothing simulated (through
# smpirun without hnm-run, which refuses first: run_cfg.sh; smpirun adds
# its own lines: not the suite's `refuse`).
run load graphene "--cfg=hnm/link-load:$WORK/load.csv" --cfg=hnm/link-topology:TORUS:2
check "--cfg=hnm/link-load writes the file (status $(cat "$WORK/load.st"))" \
  grep -q '^link,role,a,b,c,bandwidth_Bps,bytes,busy_s,mean_util,peak_util$' "$WORK/load.csv"
plugin_refuses() { # WHAT NAME PATTERN OPTION
  smpirun_plugin "$2" "$4"
  check "$1: exit 2 (got $(cat "$WORK/$2.st"))" [ "$(cat "$WORK/$2.st")" -eq 2 ]
  check "$1: says why (got: $(head -c 300 "$WORK/$2.err"))" grep -q -- "$3" "$WORK/$2.err"
  check "$1: nothing simulated" [ "$(grep -c "^send" "$WORK/$2.out" || true)" -eq 0 ]
}
mkdir "$WORK/dir"
plugin_refuses "hnm/link-load: a directory" loaddir "^hnm: --cfg=hnm/link-load: '$WORK/dir': " "--cfg=hnm/link-load:$WORK/dir"
plugin_refuses "hnm/link-load: no such directory" loadmissing \
  "^hnm: --cfg=hnm/link-load: '$WORK/none/x.csv': " "--cfg=hnm/link-load:$WORK/none/x.csv"
plugin_refuses "hnm/link-topology: no parameters" topo "^hnm: --cfg=hnm/link-topology:TORUS: not TOPOLOGY:PARAMETERS" \
  --cfg=hnm/link-topology:TORUS
plugin_refuses "hnm/link-topology: unknown" topo2 "^hnm: --cfg=hnm/link-topology:RING:4: not a topology" \
  --cfg=hnm/link-topology:RING:4
finish
