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

# hybrid_csvs SEED SIZES NOISE: $WORK/p2p.csv and $WORK/probe.csv, synthetic
# measurements of the known hybrid model of hybrid.awk (NOISE gauss or
# factors, see there).
hybrid_csvs() {
  awk -v dir="$WORK" -v seed="$1" -v sizes="$2" -v noise="$3" -f "$(dirname "${BASH_SOURCE[0]}")/hybrid.awk"
}
