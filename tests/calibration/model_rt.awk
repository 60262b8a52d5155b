# model_rt.awk -- the round trip a hybrid model file predicts, read with
# awk's own text functions (independently of hnm's model reader): load it
# with -v model=FILE and -f model_rt.awk before the test's own program.
# seg(k): the segment holding k bytes; rt(k): its round trip, k <= the
# detached limit 2 (o_s + k s_b + L + k/B + o_r + k r_b), else 2 (L + k/B).
# Used by residuals.sh and residuals_sized.sh.
function num(line, attr,   m) {
  if (match(line, attr "=\"[^\"]*\"") == 0) return 0
  m = substr(line, RSTART + length(attr) + 2, RLENGTH - length(attr) - 3); sub(/[a-zA-Z]+$/, "", m); return m + 0
}
function seg(k,   i) { for (i = 1; k > u[i]; i++); return i }
function rt(k,   i, T) {
  i = seg(k); T = L[i] + k / B[i]
  return k <= D ? 2 * (so[i] + k * sb[i] + T + ro[i] + k * rb[i]) : 2 * T
}
BEGIN {
  while ((getline line < model) > 0) {
    if (line ~ /<protocol/) D = num(line, "detached")
    if (line ~ /<segment /) {
      n++; u[n] = line ~ /upto="inf"/ ? 1e300 : num(line, "upto"); L[n] = num(line, "latency")
      B[n] = num(line, "bandwidth"); so[n] = num(line, "send-o"); sb[n] = num(line, "send-per-byte")
      ro[n] = num(line, "recv-o"); rb[n] = num(line, "recv-per-byte")
    }
  }
}
