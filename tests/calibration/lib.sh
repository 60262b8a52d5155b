# lib.sh -- helpers of the calibration tests (sourced by bash).
# Environment (tests/calibration/CMakeLists.txt): HNM_RUN, HNM_CALIBRATE,
# APPS_BIN, DATA.
source "$(dirname "${BASH_SOURCE[0]}")/../sim/lib.sh"

TWO=("$DATA/platforms/two.xml" "$DATA/platforms/two.hosts")

# simulate MODEL DIR BENCH-ARGS...: the benchmark under hnm-run on two.xml.
simulate() {
  local model=$1 dir=$2
  shift 2
  "$HNM_CALIBRATE" run --simulate --model "$model" -platform "${TWO[0]}" -hostfile "${TWO[1]}" -d "$dir" -- "$@"
}

# Largest sampled size <= B among the sizes of CSV (op,size,... rows).
largest_below() { awk -F, -v b="$2" 'NR > 1 && $2 <= b && $2 > m { m = $2 } END { print m + 0 }' "$1"; }

# Real timings measure whatever else the machine runs (other builds, other
# test suites): then the measurements say nothing about MPI, so a test of
# real measurements is skipped (exit 77, ctest SKIP_RETURN_CODE) instead of
# failing or passing by luck. "Busy" is read from the kernel's count of
# runnable tasks (/proc/stat procs_running, instantaneous, unlike the load
# average that lags a minute behind), sampled 20 times over 2 s: a mean of
# one or more runnable tasks besides the sampler means another program
# competes for a core.
#   skip_if_busy WHEN: exit 77 with a SKIP line naming WHEN if busy.
skip_if_busy() {
  local mean
  mean=$(for _ in $(seq 20); do awk '$1 == "procs_running" { print $2 - 1 }' /proc/stat; sleep 0.1; done |
    awk '{ s += $1 } END { printf "%.2f", s / NR }')
  if awk -v m="$mean" 'BEGIN { exit !(m >= 1) }'; then
    skip "machine busy $1 ($mean other runnable tasks on $(nproc) cores): real MPI timings would measure the load"
  fi
}

# fit_refuses WHAT REGEX ARGS...: hnm-calibrate ARGS refuses (refuse, tests/lib.sh).
fit_refuses() {
  local what=$1 re=$2
  shift 2
  rm -rf "$WORK/m.xml" "$WORK/m-report"
  refuse "$what" "$re" "$HNM_CALIBRATE" "$@"
}

# segments MODEL: MODEL's segment attributes as "upto=U name=value ..."
# lines in $WORK/segs.txt, values in SI (s, B/s), for `at`.
segments() {
  awk '/<segment / { line = ""; s = $0
         while (match(s, /[a-z-]+="[^"]*"/)) {
           kv = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
           split(kv, p, "=\""); v = p[2]; sub(/"$/, "", v); sub(/(s|Bps)$/, "", v)
           line = line " " p[1] "=" v }
         print line }' "$1" >"$WORK/segs.txt"
}
# at K NAME: the value of NAME in the segment (of `segments`) holding K bytes.
at() {
  awk -v k="$1" -v name="$2" '{ for (i = 1; i <= NF; i++) { split($i, p, "="); v[p[1]] = p[2] }
    u = v["upto"] == "inf" ? 1e300 : v["upto"] + 0
    if (k <= u) { print v[name]; exit } }' "$WORK/segs.txt"
}

# hybrid_csvs SEED SIZES NOISE: $WORK/p2p.csv and $WORK/probe.csv, synthetic
# measurements of the known hybrid model of hybrid.awk (NOISE gauss or
# factors, see there).
hybrid_csvs() {
  awk -v dir="$WORK" -v seed="$1" -v sizes="$2" -v noise="$3" -f "$(dirname "${BASH_SOURCE[0]}")/hybrid.awk"
}
