# heldout_medians.awk -- the measured median round trip of each held-out
# size of a platform-calibration PingPong CSV (an MPI_Send row, then its
# MPI_Recv row: the round trip is their sum), as "SIZE MEDIAN" lines.
# Usage: awk -F, -f heldout_medians.awk HELD PREFIX_PingPong.csv
# (HELD: one size a line). Used by tests/calibration/bootstrap.sh and
# bench/bootstrap.sh.
function median(a, n,   i, j, t) {
  for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
FNR == NR { h[$1] = 1; next }
$1 == "MPI_Send" { s = $4; next }
($2 in h) { n[$2]++; v[$2, n[$2]] = s + $4 }
END { for (k in n) { for (i = 1; i <= n[k]; i++) b[i] = v[k, i]; printf "%d %.9g\n", k, median(b, n[k]) } }
