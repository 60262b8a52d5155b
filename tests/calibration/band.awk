# band.awk -- the round-trip band of a model set at given sizes, from the
# closed form SMPI times a fitted hybrid model with (docs/calibration.md,
# "What fit inverts": 2 (o_s + k O_s + L + k/B + o_r + k O_r) up to the
# detached threshold, 2 (L + k/B) above). Only absolute latencies and
# bandwidths, as hnm-calibrate fit writes them.
#   awk -f band.awk SET/central.xml SET/member-*.xml SIZES
# SIZES: lines "SIZE MEASURED-MEDIAN" (seconds). Prints per size
#   SIZE MEDIAN CENTRAL P5 P95 INSIDE
# (P5, P95: the 5% and 95% quantiles over the members, linear between order
# statistics; INSIDE: 1 when P5 <= MEDIAN <= P95), then
#   coverage COVERED SIZES FRACTION MEDIAN-HALF-WIDTH
# (half-width: (P95 - P5) / 2 / CENTRAL, the median over the sizes).
function num(v) { sub(/(Bps|s)$/, "", v); return v + 0 }
function attr(line, name,   m) {
  if (match(line, " " name "=\"[^\"]*\"") == 0) return ""
  m = substr(line, RSTART + length(name) + 3, RLENGTH - length(name) - 4)
  return m
}
function rtt(f, k,   i, T) {
  for (i = 1; i < nseg[f] && k > up[f, i]; i++);
  T = lat[f, i] + k / bw[f, i]
  return k <= det[f] ? 2 * (so[f, i] + k * sb[f, i] + T + ro[f, i] + k * rb[f, i]) : 2 * T
}
function sort(a, n,   i, j, t) {
  for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
}
function quantile(a, n, p,   x, i) { x = p * (n - 1); i = int(x); return i + 1 >= n ? a[n] : a[i + 1] + (x - i) * (a[i + 2] - a[i + 1]) }
function median(a, n) { sort(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
FILENAME ~ /\.xml$/ {
  if (FNR == 1) { nf++; nseg[nf] = 0 }
  if ($0 ~ /<protocol /) { d = attr($0, "detached"); det[nf] = d == "none" ? -1 : d + 0 }
  if ($0 ~ /<segment /) {
    i = ++nseg[nf]; u = attr($0, "upto"); up[nf, i] = u == "inf" ? 1e300 : u + 0
    lat[nf, i] = num(attr($0, "latency")); bw[nf, i] = num(attr($0, "bandwidth"))
    so[nf, i] = num(attr($0, "send-o")); sb[nf, i] = num(attr($0, "send-per-byte"))
    ro[nf, i] = num(attr($0, "recv-o")); rb[nf, i] = num(attr($0, "recv-per-byte"))
  }
  next
}
NF == 2 {
  k = $1; med = $2; c = rtt(1, k)
  for (f = 2; f <= nf; f++) v[f - 1] = rtt(f, k)
  sort(v, nf - 1); lo = quantile(v, nf - 1, 0.05); hi = quantile(v, nf - 1, 0.95)
  inside = med >= lo && med <= hi
  printf "%d %.6g %.6g %.6g %.6g %d\n", k, med, c, lo, hi, inside
  n++; covered += inside; hw[n] = (hi - lo) / 2 / c
}
END {
  if (nf < 2 || n == 0) { print "band.awk: no member or no size" > "/dev/stderr"; exit 1 }
  printf "coverage %d %d %.4f %.4f\n", covered, n, covered / n, median(hw, n)
}
