# pingpong_errors.awk -- how far simulated round trips are from measured
# ones: per size, |simulated - median measured| / median measured, the
# measured round trip being an MPI_Send row plus its MPI_Recv row of a
# platform-calibration PingPong CSV; summarised per size decade by the
# median over the decade's sizes ("1eD N ERR" lines), then over all sizes
# ("overall N ERR"). A measured size the simulation lacks: "missing SIZE",
# exit 1.
# Usage: awk -F, -f pingpong_errors.awk MEASURED_PingPong.csv SIM_p2p.csv
# (SIM: hnm-calibrate run's p2p.csv). Used by
# tests/calibration/platform_calibration.sh and bench/platform-calibration.sh.
function median(a, n,   i, j, t) {
  for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
FNR == NR { if ($1 == "MPI_Send") { s = $4; k = $2 } else { n[k]++; v[k, n[k]] = s + $4 }; next }
FNR > 1 && $1 == "pingpong" { sim[$2] = $4 }
END { for (k in n) { if (!(k in sim)) { print "missing", k; exit 1 }
        for (i = 1; i <= n[k]; i++) b[i] = v[k, i]; med = median(b, n[k])
        e = (sim[k] - med) / med; if (e < 0) e = -e
        d = int(log(k) / log(10) + 1e-9); nd[d]++; E[d, nd[d]] = e; all[++na] = e }
      for (d = 0; d < 10; d++) if (nd[d]) { for (i = 1; i <= nd[d]; i++) b[i] = E[d, i]; printf "1e%d %d %.4f\n", d, nd[d], median(b, nd[d]) }
      printf "overall %d %.4f\n", na, median(all, na) }
