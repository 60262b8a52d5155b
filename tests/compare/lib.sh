# lib.sh -- helpers for the hnm-compare tests, on top of tests/sim/lib.sh.
# Environment (set by ctest): HNM_COMPARE, CMP_BIN (the sendrecv program), DATA.
source "$(dirname "${BASH_SOURCE[0]}")/../sim/lib.sh"

PROG=$CMP_BIN/sendrecv
TWO=$DATA/platforms/two.xml
FLAT=$DATA/platforms/flat32.xml
# The simulation options of tests/sim/lib.sh, for every run of a sweep.
SIMS=()
for o in "${SIMOPTS[@]}"; do SIMS+=("--sim-opt=$o"); done

cd "$WORK"

# field CSV INDEX COLUMN: column np, metric, options, time_s, wall_s,
# maxrss_kib, status or exit_code of the last row with that index. Counted
# from the end of the line, since a quoted model spec may hold commas (args
# and options here never do, except mpirun's, whose options are never asked).
field() {
  awk -F, -v i="$2" -v col="$3" 'BEGIN { split("np metric options time_s wall_s maxrss_kib status exit_code", n, " ")
      for (k = 1; k <= 8; k++) off[n[k]] = 8 - k }
    NR > 1 && $1 == i { v = $(NF - off[col]) } END { print v }' "$1"
}
# rows CSV: the number of data rows.
rows() { echo $(($(wc -l <"$1") - 1)); }
