#!/usr/bin/env bash
# Signals end everything hnm-calibrate started: SIGINT or
# SIGTERM to the tool, then
#  - fit (platform-calibration's data and a bootstrap, a few seconds of
#    work, signalled once its temporaries exist): it dies of the signal
#    (128 + N), and no temporary of -o (.m.xml.XXXXXX) or of the report
#    (.m-report.XXXXXX) remains, nor m.xml or m-report;
#  - run with a launcher whose "ranks" run on (a stand-in mpirun: a
#    background sleep, and a subshell that writes data/late.csv 3 s later,
#    as a rank that goes on writing its CSV): the tool dies of the signal,
#    none of its descendants survives it, and nothing appears in data/
#    afterwards (listed at once and again 4 s later);
#  - machine with the same launcher (its run is a child hnm-calibrate that
#    starts the launcher): the same;
#  - run --simulate (hnm-run, smpirun, smpimain) signalled mid-benchmark:
#    the same, the simulator included; also with SIGKILL, which the tool
#    cannot forward (its children die with it: a parent-death signal).
# The signals are sent to the tool's pid alone, not to a terminal's
# process group: the tool forwards them.
source "$(dirname "$0")/lib.sh"
need "$HNM_CALIBRATE"

# descendants PID: every process under PID (ps's parent links).
descendants() {
  ps -e -o pid=,ppid= | awk -v root="$1" '
    { parent[$1] = $2 }
    END {
      n = 1; todo[1] = root
      for (i = 1; i <= n; i++)
        for (p in parent)
          if (parent[p] == todo[i]) { todo[++n] = p; printf "%s ", p }
    }'
}

# alive PIDS...: those still running (zombies of the harness aside).
alive() {
  for p in "$@"; do
    if [ -r "/proc/$p/stat" ] && [ "$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$p/stat" 2>/dev/null)" != Z ]; then
      printf '%s ' "$p"
    fi
  done
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds (0) or
# SECONDS pass (1).
wait_for() {
  local n=$(($1 * 10))
  shift
  while [ "$n" -gt 0 ]; do
    "$@" && return 0
    sleep 0.1
    n=$((n - 1))
  done
  return 1
}

has_children() { [ -n "$(descendants "$1")" ]; }
has_grandchildren() { [ "$(descendants "$1" | wc -w)" -ge "$2" ]; }
temporaries_in() { compgen -G "$1/.m.xml.*" >/dev/null && compgen -G "$1/.m-report.*" >/dev/null; }

# signalled WHAT SIG PID DIR: PID, signalled with SIG once started, dies
# of it; none of its descendants (listed just before) survives; DIR does
# not change afterwards.
signalled() {
  local what=$1 sig=$2 pid=$3 dir=$4
  local before
  before=$(descendants "$pid")
  kill -s "$sig" "$pid"
  wait "$pid"
  local st=$?
  local num
  num=$(kill -l "$sig")
  check_eq "$what: the tool's status (128 + SIG$sig)" "$st" $((128 + num))
  local now
  now=$(cd "$dir" && find . | LC_ALL=C sort)
  sleep 4
  # shellcheck disable=SC2086
  check_eq "$what: no process of the tool left (of: $before)" "$(alive $before)" ""
  check_eq "$what: nothing written in $dir after the tool ended" "$(cd "$dir" && find . | LC_ALL=C sort)" "$now"
}

# A background job of a script starts with SIGINT ignored (and a tool
# keeps a signal it was started with ignored, as nohup wants): env restores
# it. Without env --default-signal (coreutils < 8.31), SIGTERM alone.
missing=()
SIGS=(TERM INT)
DEFSIG=(env --default-signal=INT)
if ! env --default-signal=INT true 2>/dev/null; then
  SIGS=(TERM)
  DEFSIG=()
  missing+=("SIGINT (no env --default-signal)")
fi

# ---- fit: temporaries removed --------------------------------------------
PC=$DATA/platform-calibration/plafrim_15_06_16/calibration/testplatform.xml
for sig in "${SIGS[@]}"; do
  F=$WORK/fit-$sig
  mkdir -p "$F"
  "${DEFSIG[@]}" "$HNM_CALIBRATE" fit --platform-calibration "$PC" --bootstrap 200 --no-plots \
    -o "$F/m.xml" 2>"$F/err" &
  pid=$!
  if ! wait_for 60 temporaries_in "$F"; then
    check_eq "fit SIG$sig: its temporaries appear before it ends ($(cat "$F/err"))" "$(ls -A "$F")" ".m.xml.* .m-report.*"
    kill -s KILL "$pid" 2>/dev/null
    wait "$pid"
    continue
  fi
  signalled "fit SIG$sig" "$sig" "$pid" "$F"
  check_eq "fit SIG$sig: no temporary, no model, no report left" "$(ls -A "$F")" "err"
done

# ---- run and machine with a launcher whose ranks go on ---------------------
fake=$WORK/fake-mpirun
cat >"$fake" <<'EOF'
#!/bin/sh
# A launcher whose "ranks" outlive a killed launcher: the data directory
# is the value after -d.
d=.
while [ $# -gt 0 ]; do
  [ "$1" = -d ] && d=$2
  shift
done
sleep 300 &
(sleep 3; echo late >"$d/late.csv") &
wait
EOF
chmod +x "$fake"
for sig in "${SIGS[@]}"; do
  R=$WORK/run-$sig
  mkdir -p "$R/data"
  "${DEFSIG[@]}" "$HNM_CALIBRATE" run --mpirun "$fake" --bench /bin/true -d "$R/data" 2>"$R/err" &
  pid=$!
  wait_for 20 has_grandchildren "$pid" 3
  signalled "run SIG$sig" "$sig" "$pid" "$R/data"
  check_eq "run SIG$sig: data/ as it was" "$(ls -A "$R/data")" ""
done
[ -x "${APPS_BIN:-}/calibrate-mpi" ] || missing+=("machine (no calibrate-mpi: Open MPI missing)")
for sig in "${SIGS[@]}"; do
  [ -x "${APPS_BIN:-}/calibrate-mpi" ] || break
  M=$WORK/machine-$sig
  mkdir -p "$M"
  "${DEFSIG[@]}" "$HNM_CALIBRATE" machine --mpirun "$fake" -d "$M/d" 2>"$M/err" &
  pid=$!
  wait_for 20 has_grandchildren "$pid" 4
  mkdir -p "$M/d"
  signalled "machine SIG$sig" "$sig" "$pid" "$M/d"
  check_eq "machine SIG$sig: no late CSV" "$(find "$M/d" -name late.csv)" ""
done

# ---- run --simulate: hnm-run, smpirun and smpimain end too -----------------
# SIGKILL cannot be forwarded: hnm-run, started with a parent-death signal
# (SIGTERM), ends its simulator itself.
if [ -n "${HNM_RUN:-}" ] && [ -x "${APPS_BIN:-}/calibrate" ]; then
  for sig in TERM KILL; do
    S=$WORK/sim-$sig
    mkdir -p "$S/data"
    "${DEFSIG[@]}" "$HNM_CALIBRATE" run --simulate --model graphene -platform "${TWO[0]}" \
      -hostfile "${TWO[1]}" -d "$S/data" -- --min 1 --max 4MiB --sizes 400 --reps 50 2>"$S/err" &
    pid=$!
    # Signalled once the simulator runs (hnm-run execs smpirun, which starts
    # smpimain: 2 below).
    if wait_for 60 has_grandchildren "$pid" 2; then
      sleep 1
      signalled "run --simulate SIG$sig" "$sig" "$pid" "$S/data"
      check_eq "run --simulate SIG$sig: no CSV written" "$(ls -A "$S/data")" ""
    else
      check_eq "run --simulate: the simulation starts ($(cat "$S/err"))" "no" "yes"
      kill -s KILL "$pid" 2>/dev/null
      wait "$pid"
    fi
  done
else
  missing+=("run --simulate (no hnm-run or apps/calibrate)")
fi
# A part that could not run makes the test Skipped (when nothing failed).
if [ ${#missing[@]} -gt 0 ] && [ "$FAILED" -eq 0 ]; then
  skip "not run: ${missing[*]}"
fi
finish
