# lib.sh -- what the bench/ scripts share (sourced by bash, after they set
# BUILD).
#   bench_need FILE...    exit 2 unless each FILE is an executable, with one
#                         line naming the script and the missing FILE
#   bench_machine TEXT    the "# machine: ..." line heading a table: cores,
#                         memory, system, then TEXT (a load, a kernel)
#   bench_work            $work, a scratch directory removed at exit
#   bench_mpi_table PROG DIR
#                         compile bench/PROG.c with mpicc -O2 into DIR and
#                         run it on one rank of the real MPI after a "# date
#                         load" line; its table also goes to DIR/table.txt
#                         (run from the top of the tree)

bench_need() {
  local f
  for f in "$@"; do
    [ -x "$f" ] || { echo "bench/$(basename "$0"): $f missing (build first: cmake --build $BUILD)" >&2; exit 2; }
  done
}

bench_machine() {
  echo "# machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)," \
    "$(. /etc/os-release && echo "$PRETTY_NAME"), $1"
}

bench_mpi_table() {
  mkdir -p "$2"
  mpicc -O2 "bench/$1.c" -o "$2/$1"
  echo "# $(date -u '+%F %R') $(uptime | sed 's/.*load/load/')"
  mpirun --allow-run-as-root --oversubscribe -np 1 "$2/$1" | tee "$2/table.txt"
}

bench_work() {
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}
