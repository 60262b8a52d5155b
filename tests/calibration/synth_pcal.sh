# synth_pcal.sh -- sourced by the calibration tests: synthetic measurements
# in SimGrid's platform-calibration format from a known hybrid model.
#   synth_pcal DIR SEED RECV-NOISE [SIZES]
# writes DIR/calibration/{s.xml, s_breakpoints, s_PingPong.csv, s_Recv.csv,
# s_Isend.csv} and DIR/truth ("SIZE ROUND-TRIP" without noise, per size).
# The model (eager = detached < 8192, so async = detached = 8191; the
# breakpoints file's limits 1024 and 8192: segments k <= 1023, <= 8191):
#   k <= 1023:  o_s 1 us + 0.2 ns/B, o_r 1.5 us + 0.3 ns/B, L 5 us,  B 1 GB/s
#   <= 8191:    o_s 2 us + 0.1 ns/B, o_r 3 us + 0.1 ns/B,   L 8 us,  B 2 GB/s
#   above:      rendez-vous,                                L 20 us, B 5 GB/s
# round trip 2 (o_s + L + k/B + o_r) up to 8191, 2 (L + k/B) above (SMPI's,
# docs/calibration.md). SIZES (default 240) distinct sizes log-uniform in
# [1 B, 1 MB], 10 repetitions each. Noise: each size's round trips are off
# by a factor 1 + 0.05 g (g standard normal, one draw per size: the
# size-to-size scatter no function of size explains, the noise floor), and
# each repetition by another 1 + 0.05 g; sends 2% per repetition; receives
# RECV-NOISE per repetition plus 20% of them 2 to 10 times too slow when
# RECV-NOISE > 0.1 (a noisy receive file).
synth_pcal() {
  local dir=$1 seed=$2 rnoise=$3 nsizes=${4:-240}
  mkdir -p "$dir/calibration"
  cat >"$dir/calibration/s.xml" <<'XML'
<?xml version="1.0"?>
<config id="Config">
 <prefix value="s"/>
 <breakpoints_file value="s_breakpoints"/>
 <eager_threshold value="8192"/>
 <detached_threshold value="8192"/>
</config>
XML
  printf 'Limit, Name\n1024, Small\n8192, Medium\n' >"$dir/calibration/s_breakpoints"
  awk -v seed="$seed" -v rn="$rnoise" -v ns="$nsizes" -v d="$dir" 'BEGIN {
    srand(seed)
    split("1023 8191 1e300", up, " ")
    split("1e-6 2e-6 0", os, " "); split("0.2e-9 0.1e-9 0", Os, " ")
    split("1.5e-6 3e-6 0", ro0, " "); split("0.3e-9 0.1e-9 0", ro1, " ")
    split("5e-6 8e-6 20e-6", L, " "); split("1e9 2e9 5e9", B, " ")
    pp = d "/calibration/s_PingPong.csv"; rv = d "/calibration/s_Recv.csv"; is = d "/calibration/s_Isend.csv"
    t = 0
    for (s = 0; s < ns; s++) {
      k = int(exp(rand() * log(1e6)) + 0.5)
      if (k in seen) continue
      seen[k] = 1
      i = seg(k); T = L[i] + k / B[i]; so = os[i] + k * Os[i]; ro = ro0[i] + k * ro1[i]
      rtt = k <= 8191 ? 2 * (so + T + ro) : 2 * T
      printf "%d %.9g\n", k, rtt > (d "/truth")
      f = 1 + 0.05 * gauss()
      for (r = 0; r < 10; r++) {
        y = rtt * f * (1 + 0.05 * gauss())
        snd = (k <= 8191 ? so : T) * (1 + 0.02 * gauss())
        printf "MPI_Send,%d,%.6f,%.9g\nMPI_Recv,%d,%.6f,%.9g\n", k, t, snd, k, t, y - snd > pp
        rc = (k <= 8191 ? ro : T) * (1 + rn * gauss())
        if (rn > 0.1 && rand() < 0.2) rc *= 2 + 8 * rand()
        printf "MPI_Recv,%d,%.6f,%.9g\n", k, t, rc < 1e-7 ? 1e-7 : rc > rv
        printf "MPI_Isend,%d,%.6f,%.9g\n", k, t, so * (1 + 0.02 * gauss()) > is
        t += 1e-3
      }
    }
  }
  function seg(k,   i) { for (i = 1; k > up[i]; i++); return i }
  function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }'
  sort -n -o "$dir/truth" "$dir/truth"
}
