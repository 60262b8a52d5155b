# hybrid.awk -- synthetic measurements (p2p.csv, probe.csv) of a known
# hybrid model, timed exactly as SMPI would (docs/calibration.md, "What fit
# inverts"); used by synthetic.sh and residuals.sh through hybrid_csvs
# (tests/calibration/lib.sh). The model (A = 32768 eager, D = 262144
# detached):
#   k <= 2048:  o_s 1 us + 1 ns/B,   o_r 2 us + 1.5 ns/B, L 20 us,  B 50 MB/s
#   <= 32768:   o_s 3 us + 0.5 ns/B, o_r 5 us + 0.5 ns/B, L 40 us,  B 100 MB/s
#   <= 262144:  o_s 20 us + 0.3 ns/B, (detached: no o_r), L 100 us, B 400 MB/s
#   above:      rendez-vous,                              L 200 us, B 1 GB/s
# Variables: dir (where to write), seed, sizes (drawn log-uniform in
# [1 B, 16 MiB], 5 repetitions each), noise:
#   gauss    every time x (1 + 0.05 g), g standard normal, and 2% of them
#            3 to 10 times too slow (a preempted process); 9 digits;
#   factors  sends and receives exact, the 5 round trips of a size the
#            model's times x 0.9, 0.95, 1, 1.05, 1.3; 12 digits;
#   sized    per-size distributions (residuals_sized.sh): the sizes are
#            16 x 1.25^s, s = 0 .. sizes-1 (16 B to 8.5 MB for 60), each
#            with 10 round trips (the last size 9), sends and receives
#            exact; the round trips of an even s the model's times x
#            fe = 0.8 0.9 0.95 1 1 1.05 1.1 1.2 1.5 2, of an odd s x
#            1.4 x fo = 0.95 0.97 0.99 1 1 1.01 1.02 1.03 1.05 1.1; 12
#            digits.
# The probe rows are noise-free at 1, 32768, 32769, 262144, 262145, 4 MiB.
BEGIN {
  srand(seed); A = 32768; D = 262144
  n = split("2048 32768 262144 1e300", up, " ")
  split("1e-6 3e-6 20e-6 0", os, " ");  split("1e-9 0.5e-9 0.3e-9 0", Os, " ")
  split("2e-6 5e-6 0 0", ro0, " ");    split("1.5e-9 0.5e-9 0 0", ro1, " ")
  split("20e-6 40e-6 100e-6 200e-6", L, " "); split("5e7 1e8 4e8 1e9", B, " ")
  split("0.9 0.95 1 1.05 1.3", f, " ")
  split("0.8 0.9 0.95 1 1 1.05 1.1 1.2 1.5 2", fe, " ")
  split("0.95 0.97 0.99 1 1 1.01 1.02 1.03 1.05 1.1", fo, " ")
  split("send recv pingpong", ops, " ")
  fmt = noise == "gauss" ? "%.9g" : "%.12g"
  p2p = dir "/p2p.csv"; probe = dir "/probe.csv"
  print "op,size,start,duration" > p2p
  print "size,delay,send,recv,pingpong" > probe
  for (s = 0; s < sizes; s++) {
    k = int(exp(rand() * log(16777216)) + 0.5)
    if (noise == "sized") {
      k = int(16 * 1.25 ^ s)
      for (r = 1; r <= (s + 1 < sizes ? 10 : 9); r++)
        for (o = 1; o <= 3; o++) {
          y = t(ops[o], k)
          if (ops[o] == "pingpong") y *= s % 2 == 0 ? fe[r] : 1.4 * fo[r]
          printf "%s,%d,0," fmt "\n", ops[o], k, y > p2p
        }
      continue
    }
    for (r = 1; r <= 5; r++)
      for (o = 1; o <= 3; o++) {
        y = t(ops[o], k)
        if (noise == "gauss") {
          y *= 1 + 0.05 * gauss()
          if (rand() < 0.02) y *= 3 + 7 * rand()
        } else if (ops[o] == "pingpong") {
          y *= f[r]
        }
        printf "%s,%d,0," fmt "\n", ops[o], k, y > p2p
      }
  }
  split("1 32768 32769 262144 262145 4194304", pk, " ")
  for (i = 1; i <= 6; i++) {
    k = pk[i]; delay = 1e-3
    snd = k <= D ? t("send", k) : delay + T(k)
    printf "%d,%g," fmt "," fmt "," fmt "\n", k, delay, snd, t("recv", k), t("pingpong", k) > probe
  }
}
function seg(k,   i) { for (i = 1; k > up[i]; i++); return i }
function T(k,   i) { i = seg(k); return L[i] + k / B[i] }
function so(k,   i) { i = seg(k); return os[i] + k * Os[i] }
function ro(k,   i) { i = seg(k); return ro0[i] + k * ro1[i] }
function t(op, k) {
  if (op == "send") return k <= D ? so(k) : T(k)
  if (op == "recv") return k <= A ? ro(k) : k <= D ? T(k) + ro(k) : T(k)
  return k <= D ? 2 * (so(k) + T(k) + ro(k)) : 2 * T(k)
}
function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
