#!/usr/bin/env bash
# Stochastic mode against measured round-trip distributions (docs/models.md,
# "Stochastic mode"): for each cluster directory of SimGrid's
# platform-calibration data (as bench/platform-calibration.sh takes them),
# fit the hybrid model with hnm-calibrate fit's defaults (which writes each
# segment's residuals), pick 10 measured sizes spread evenly over the
# decades (log scale), simulate REPS ping-pongs per size with stochastic=on
# (tests/sim/pingpong_reps, blocking MPI_Send/MPI_Recv, on two.xml; the
# fitted model's latencies and bandwidths are absolute, so the platform plays
# no part), and print per size the Kolmogorov-Smirnov distance between the
# simulated and the measured round-trip distributions (the measured round
# trip: the MPI_Send row plus the MPI_Recv row of PREFIX_PingPong.csv), the
# medians, and the distance of the deterministic model (a single value: its
# KS distance is max(F(t), 1 - F(t)) >= 0.5), and the distance with each
# segment's pooled residuals alone (the model without its per-size tables,
# as model files were before them).
# HELDOUT=1: also the held-out measurement: the fit without every 5th
# distinct size, timed at 10 of the held-out sizes (spread as above), whose
# messages draw from their measured neighbours' tables.
# FIT_OPTS: more options for both fits (e.g. --residual-sizes 5);
# COLLECTIVES=0: skip the collective part.
# Then the collective part: MPI_Allreduce of 8 bytes at P = 2 ... 32 ranks
# on the bundled cluster, deterministic and stochastic (SEEDS seeds, REPS
# repetitions each): the mean of the max over ranks grows with P.
#   bench/stochastic.sh [BUILD-DIR] CLUSTER-DIR...     (REPS, SEEDS, HELDOUT, FIT_OPTS, COLLECTIVES in the environment)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$1
shift
REPS=${REPS:-1000}
SEEDS=${SEEDS:-5}
FIT_OPTS=${FIT_OPTS:-}
COLLECTIVES=${COLLECTIVES:-1}
CAL=$BUILD/bin/hnm-calibrate
RUN=$BUILD/bin/hnm-run
PP=$BUILD/tests/sim/pingpong_reps
TWO=(-platform tests/data/platforms/two.xml -hostfile tests/data/platforms/two.hosts)
SIM=(--cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 --cfg=smpi/privatization:no --log=root.thres:critical)
OUT=$(mktemp -d "${TMPDIR:-/tmp}/hnm-stoch.XXXXXX")
trap 'rm -rf "$OUT"' EXIT

# ks FILE: lines "SIZE VALUE SOURCE" (SOURCE m or s) -> "SIZE KS n_m n_s med_m med_s"
ks() {
  sort -k1,1n -k2,2g "$1" | awk '
    function flush(   i, j, d, ks, a, b, cm, cs) {
      if (n == 0) return
      ks = 0; cm = 0; cs = 0
      for (i = 1; i <= n; ) {
        for (j = i; j <= n && v[j] == v[i]; j++) { if (s[j] == "m") cm++; else cs++ }
        d = cm / nm - cs / ns; if (d < 0) d = -d; if (d > ks) ks = d
        i = j }
      printf "%s %.3f %d %d %.4g %.4g\n", size, ks, nm, ns, med("m"), med("s")
      n = 0; nm = 0; ns = 0 }
    function med(src,   i, c, want, lo) {
      c = 0; want = (src == "m" ? nm : ns)
      for (i = 1; i <= n; i++) if (s[i] == src) { c++; if (c == int((want + 1) / 2)) lo = v[i]
        if (c == int(want / 2) + 1) return (want % 2 ? lo : (lo + v[i]) / 2) }
      return lo }
    $1 != size { flush(); size = $1 }
    { n++; v[n] = $2 + 0; s[n] = $3; if ($3 == "m") nm++; else ns++ }
    END { flush() }'
}

# sim MODEL SIZES OUT: stochastic round trips "SIZE VALUE s" (REPS per size).
sim() {
  "$RUN" --model "$1:stochastic=on" "${TWO[@]}" -np 2 "${SIM[@]}" "$PP" --bytes "$2" --reps "$REPS" |
    awk '{ print $2, $3, "s" }' >"$3"
}
# det MODEL SIZES OUT: the deterministic round trip "SIZE VALUE s".
det() {
  "$RUN" --model "$1" "${TWO[@]}" -np 2 "${SIM[@]}" "$PP" --bytes "$2" --reps 1 | awk '{ print $2, $3, "s" }' >"$3"
}
# ks_of MEASURED SIZES SIMULATED: "SIZE KS n_m n_s med_m med_s" per size.
ks_of() {
  { grep -E "^($(tr , '|' <<<"$2")) " "$1"; cat "$3"; } >"$OUT/both"
  ks "$OUT/both"
}
# pooled MODEL OUT: MODEL without its per-size residual tables (each
# segment's pooled residuals only: the model files written before them).
pooled() { grep -v '<residuals ' "$1" >"$2"; }
# nearest MODEL SIZES: per size, the size of the per-size table a message
# of that size draws from (docs/model-format.md: the nearest in log scale
# within its segment: the first whose size x the next one's is at least the
# square of the message's), "-" for the segment's own.
nearest() {
  awk -v sizes="$2" '
    /<segment / { n++; u[n] = $0 ~ /upto="inf"/ ? 1e300 : substr($0, index($0, "upto=\"") + 6) + 0; nt[n] = 0 }
    /<residuals / { nt[n]++; t[n, nt[n]] = substr($0, index($0, "size=\"") + 6) + 0 }
    END { m = split(sizes, k, ",")
      for (j = 1; j <= m; j++) { for (i = 1; i < n && k[j] > u[i]; i++); best = "-"
        for (a = 1; a <= nt[i]; a++) if (a == nt[i] || k[j] <= sqrt(t[i, a] * t[i, a + 1])) { best = t[i, a]; break }
        print k[j], best } }' "$1"
}
# measured DIR OUT: the measured round trips "SIZE VALUE m" of cluster DIR.
measured() {
  local pp
  pp=$(ls "$1"/calibration/*_PingPong.csv | head -1)
  awk -F, '$1 == "MPI_Send" { s = $4; next } { printf "%s %.9g m\n", $2, s + $4 }' "$pp" >"$2"
}
# spread SIZES-FILE LO HI: 10 sizes of SIZES-FILE (one a line, sorted), the
# nearest to 10 targets evenly spread in log scale from LO to HI bytes,
# each taken once (the held-out sizes are sparse at the smallest sizes).
spread() {
  awk -v lo="$2" -v hi="$3" '{ k[NR] = $1 } END {
    lo = log(lo); hi = log(hi)
    for (t = 0; t < 10; t++) { x = lo + (hi - lo) * t / 9; best = 0
      for (i = 1; i <= NR; i++) if (!(i in used) && (best == 0 || (log(k[i]) - x) ^ 2 < (log(k[best]) - x) ^ 2)) best = i
      used[best] = 1; printf "%s%s", t ? "," : "", k[best] } }' "$1"
}
table() { # KS-FILE KS-POOLED-FILE KS-DET-FILE [NEAREST-FILE]
  if [ $# -gt 3 ]; then
    echo "| size (B) | measured | nearest table (B) | median measured (s) | median simulated (s) | KS per-size tables | KS segment's pooled | KS deterministic |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
    join "$1" "$2" | join - "$3" | join - "$4" |
      awk '{ printf "| %s | %d | %s | %s | %s | %.3f | %.3f | %.3f |\n", $1, $3, $17, $5, $6, $2, $7, $12 }'
  else
    echo "| size (B) | measured | median measured (s) | median simulated (s) | KS per-size tables | KS segment's pooled | KS deterministic |"
    echo "|---:|---:|---:|---:|---:|---:|---:|"
    join "$1" "$2" | join - "$3" |
      awk '{ printf "| %s | %d | %s | %s | %.3f | %.3f | %.3f |\n", $1, $3, $5, $6, $2, $7, $12 }'
  fi
  echo
  for f in "$1" "$2"; do
    awk -v what="$([ "$f" = "$1" ] && echo "per-size tables" || echo "segment's pooled")" '{ if ($2 > m) m = $2
      s += $2; n++; if ($2 <= 0.15) g++ } END {
      printf "KS, %s: max %.3f, mean %.3f, <= 0.15 at %d of %d sizes\n", what, m, s / n, g, n }' "$f"
  done
}

for c in "$@"; do
  name=$(basename "$c")
  d=$OUT/$name
  mkdir -p "$d"
  "$CAL" fit --platform-calibration "$c/calibration/testplatform.xml" -o "$d/hybrid.xml" --report "$d/report" \
    --no-plots $FIT_OPTS 2>"$d/fit.err"
  measured "$c" "$d/measured"
  cut -d' ' -f1 "$d/measured" | sort -un >"$d/all-sizes"
  # 10 sizes evenly spread in log scale over the measured range: the
  # measured size nearest to each target.
  sizes=$(spread "$d/all-sizes" "$(head -1 "$d/all-sizes")" "$(tail -1 "$d/all-sizes")")
  pooled "$d/hybrid.xml" "$d/pooled.xml"
  sim "$d/hybrid.xml" "$sizes" "$d/sim"
  sim "$d/pooled.xml" "$sizes" "$d/sim-pooled"
  det "$d/hybrid.xml" "$sizes" "$d/det"
  ks_of "$d/measured" "$sizes" "$d/sim" >"$d/ks"
  ks_of "$d/measured" "$sizes" "$d/sim-pooled" >"$d/ks-pooled"
  ks_of "$d/measured" "$sizes" "$d/det" >"$d/ks-det"
  echo "== $name, in-sample (the sizes are in the fit): $REPS simulated round trips per size, seed 1" \
    "($(grep -c '<segment ' "$d/hybrid.xml") segments, $(grep -c '<residuals ' "$d/hybrid.xml") per-size tables," \
    "$(wc -c <"$d/hybrid.xml") bytes)"
  table "$d/ks" "$d/ks-pooled" "$d/ks-det"

  [ "${HELDOUT:-0}" = 1 ] || continue
  # Held out: every 5th distinct size (the 5th, 10th, ...) removed from
  # every file with a size column, the model fitted without them; the 10
  # held-out sizes nearest the same targets are then timed by the tables
  # of their measured neighbours.
  h=$d/heldout
  mkdir -p "$h"
  cp -r "$c/calibration" "$h/"
  awk 'NR % 5 == 0' "$d/all-sizes" >"$h/out-sizes"
  for f in "$h"/calibration/*_PingPong.csv "$h"/calibration/*_Recv.csv "$h"/calibration/*_Isend.csv; do
    awk -F, 'NR == FNR { out[$1] = 1; next } !($2 in out)' "$h/out-sizes" "$f" >"$f.tmp" && mv "$f.tmp" "$f"
  done
  "$CAL" fit --platform-calibration "$h/calibration/testplatform.xml" -o "$h/hybrid.xml" --report "$h/report" \
    --no-plots $FIT_OPTS 2>"$h/fit.err"
  hs=$(spread "$h/out-sizes" "$(head -1 "$d/all-sizes")" "$(tail -1 "$d/all-sizes")")
  pooled "$h/hybrid.xml" "$h/pooled.xml"
  sim "$h/hybrid.xml" "$hs" "$h/sim"
  sim "$h/pooled.xml" "$hs" "$h/sim-pooled"
  det "$h/hybrid.xml" "$hs" "$h/det"
  ks_of "$d/measured" "$hs" "$h/sim" >"$h/ks"
  ks_of "$d/measured" "$hs" "$h/sim-pooled" >"$h/ks-pooled"
  ks_of "$d/measured" "$hs" "$h/det" >"$h/ks-det"
  nearest "$h/hybrid.xml" "$hs" >"$h/nearest"
  echo "== $name, held out (fitted without every 5th size, $(wc -l <"$h/out-sizes") of $(wc -l <"$d/all-sizes");" \
    "timed at 10 of them): $REPS simulated round trips per size, seed 1 ($(grep -c '<segment ' "$h/hybrid.xml")" \
    "segments, $(grep -c '<residuals ' "$h/hybrid.xml") per-size tables)"
  table "$h/ks" "$h/ks-pooled" "$h/ks-det" "$h/nearest"
done

# Collectives: the max over ranks of an 8-byte MPI_Allreduce under the
# first cluster's fitted model, on the bundled 32-node cluster.
if [ $# -gt 0 ] && [ "$COLLECTIVES" = 1 ]; then
  model=$OUT/$(basename "$1")/hybrid.xml
  echo "== MPI_Allreduce (8 B), bundled platform, model $(basename "$1"): mean over repetitions of the max over ranks"
  echo "| P | deterministic (s) | stochastic mean (s) | ratio |"
  echo "|---:|---:|---:|---:|"
  for P in 2 4 8 16 32; do
    det=$("$RUN" --model "$model" -np $P "${SIM[@]}" "$PP" --bytes 8 --reps 10 --allreduce 8 |
      awk '/^allreduce/ { s += $3; n++ } END { printf "%.6g", s / n }')
    sto=$(for seed in $(seq 1 "$SEEDS"); do
      "$RUN" --model "$model:stochastic=on,seed=$seed" -np $P "${SIM[@]}" "$PP" --bytes 8 --reps $((REPS / 10)) \
        --allreduce 8
    done | awk '/^allreduce/ { s += $3; n++ } END { printf "%.6g", s / n }')
    awk -v p=$P -v d="$det" -v s="$sto" 'BEGIN { printf "| %d | %s | %s | %.3f |\n", p, d, s, s / d }'
  done
fi
