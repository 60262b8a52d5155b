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
# KS distance is max(F(t), 1 - F(t)) >= 0.5).
# Then the collective part: MPI_Allreduce of 8 bytes at P = 2 ... 32 ranks
# on the bundled cluster, deterministic and stochastic (SEEDS seeds, REPS
# repetitions each): the mean of the max over ranks grows with P.
#   bench/stochastic.sh [BUILD-DIR] CLUSTER-DIR...     (REPS, SEEDS in the environment)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$1
shift
REPS=${REPS:-1000}
SEEDS=${SEEDS:-5}
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

for c in "$@"; do
  name=$(basename "$c")
  d=$OUT/$name
  mkdir -p "$d"
  "$CAL" fit --platform-calibration "$c/calibration/testplatform.xml" -o "$d/hybrid.xml" --report "$d/report" \
    --no-plots 2>"$d/fit.err"
  pp=$(ls "$c"/calibration/*_PingPong.csv | head -1)
  # Measured round trips: "SIZE VALUE m".
  awk -F, '$1 == "MPI_Send" { s = $4; next } { printf "%s %.9g m\n", $2, s + $4 }' "$pp" >"$d/measured"
  # 10 sizes evenly spread in log scale over the measured range: the
  # measured size nearest to each target.
  sizes=$(cut -d' ' -f1 "$d/measured" | sort -un | awk '{ k[NR] = $1 } END {
    lo = log(k[1]); hi = log(k[NR])
    for (t = 0; t < 10; t++) { x = lo + (hi - lo) * t / 9; best = 1
      for (i = 2; i <= NR; i++) if ((log(k[i]) - x) ^ 2 < (log(k[best]) - x) ^ 2) best = i
      printf "%s%s", t ? "," : "", k[best] } }')
  "$RUN" --model "$d/hybrid.xml:stochastic=on" "${TWO[@]}" -np 2 "${SIM[@]}" "$PP" --bytes "$sizes" --reps "$REPS" \
    >"$d/sim.txt"
  "$RUN" --model "$d/hybrid.xml" "${TWO[@]}" -np 2 "${SIM[@]}" "$PP" --bytes "$sizes" --reps 1 >"$d/det.txt"
  { grep -E "^($(tr , '|' <<<"$sizes")) " "$d/measured"; awk '{ print $2, $3, "s" }' "$d/sim.txt"; } >"$d/both"
  { grep -E "^($(tr , '|' <<<"$sizes")) " "$d/measured"; awk '{ print $2, $3, "s" }' "$d/det.txt"; } >"$d/both-det"
  ks "$d/both" >"$d/ks"
  ks "$d/both-det" >"$d/ks-det"
  echo "== $name: $REPS simulated round trips per size, seed 1 ($(grep -c '<segment ' "$d/hybrid.xml") segments)"
  echo "| size (B) | measured | median measured (s) | median simulated (s) | KS stochastic | KS deterministic |"
  echo "|---:|---:|---:|---:|---:|---:|"
  join "$d/ks" "$d/ks-det" | awk '{ printf "| %s | %d | %s | %s | %.3f | %.3f |\n", $1, $3, $5, $6, $2, $7 }'
  awk '{ if ($2 > m) m = $2; s += $2; n++ } END { printf "KS: max %.3f, mean %.3f over %d sizes\n", m, s / n, n }' "$d/ks"
done

# Collectives: the max over ranks of an 8-byte MPI_Allreduce under the
# first cluster's fitted model, on the bundled 32-node cluster.
if [ $# -gt 0 ]; then
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
