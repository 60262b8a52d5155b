# lib.sh -- what the bench/ scripts share (sourced by bash, after they set
# BUILD).
#   bench_need FILE...    exit 2 unless each FILE is an executable, with one
#                         line naming the script and the missing FILE
#   bench_machine TEXT    the "# machine: ..." line heading a table: cores,
#                         memory, system, then TEXT (a load, a kernel)
#   bench_work            $work, a scratch directory removed at exit

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

bench_work() {
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}
