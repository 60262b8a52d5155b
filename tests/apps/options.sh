# options.sh -- the MPI programs' command lines come from their option tables
# (core/hnm_opt.h through apps/skel.c's skel_options), under smpirun with 2
# ranks in one process (privatization off, the skeletons' norm):
#   a bad value, an unknown option, a missing argument, an operand: exit
#   status 2 and exactly one line on stderr, "PROG: --x: ..."
#   (or "PROG: 'x': unexpected argument"), from rank 0 only, and no CSV;
#   -h (SimGrid takes --help under smpirun): exit 0, the help generated from
#   the table once (its usage line, every option of the table, the built-in
#   -h/--help and --version), byte for byte the --help of the same program
#   built with mpicc and run by mpirun with 2 ranks; --version there.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need mpirun "$APPS_BIN/gcr-mpi"


# smpi PROGRAM ARGS...: smpirun with 2 ranks; stdout, stderr, status in $WORK.
smpi() {
  local rc=0
  timeout 120 smpirun -np 2 -platform "$DATA/platforms/flat32.xml" -hostfile "$DATA/platforms/flat32.hosts" \
    --cfg=smpi/privatization:no --log=root.thres:critical "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
  echo "$rc" >"$WORK/rc"
}

# refused PROG LINE ARGS...: exit 2, stderr is exactly LINE, no CSV header.
refused() {
  local prog=$1 line=$2
  shift 2
  smpi "$APPS_BIN/$prog" "$@"
  check "$prog $*: exit 2 (got $(cat "$WORK/rc"))" test "$(cat "$WORK/rc")" = 2
  check "$prog $*: one line, '$line' (got '$(head -c 300 "$WORK/err")')" test "$(cat "$WORK/err")" = "$line"
  check "$prog $*: no CSV" bash -c '! grep -q "^program,\|^op," "$1"' _ "$WORK/out"
}

# Per program: an option taking a whole number, and one of its other options.
declare -A NUMERIC=([gcr]=--k [halo]=--width [transpose]=--iterations [monc_halo]=--depth [multipath]=--chunk
                    [calibrate]=--reps)
declare -A OTHER=([gcr]=--report [halo]=--no-payload [transpose]=--algo [monc_halo]=--variant [multipath]=--paths
                  [calibrate]=--size-list [pingpong_alltoall]=--pingpong-sizes)
PROGS=(gcr halo transpose monc_halo multipath calibrate pingpong_alltoall)

for p in "${PROGS[@]}"; do
  if [ -n "${NUMERIC[$p]:-}" ]; then
    o=${NUMERIC[$p]}
    refused "$p" "$p: $o: '12x' is not a whole number" "$o" 12x
    refused "$p" "$p: $o: needs an argument" "$o"
  fi
  refused "$p" "$p: --frobnicate: unknown or ambiguous option (see $p --help)" --frobnicate
  refused "$p" "$p: 'extra': unexpected argument (options start with --; see -h)" extra

  smpi "$APPS_BIN/$p" -h
  check "$p -h: exit 0 (got $(cat "$WORK/rc"))" test "$(cat "$WORK/rc")" = 0
  check "$p -h: nothing on stderr" test ! -s "$WORK/err"
  check "$p -h: one usage line" test "$(grep -c '^Usage: ' "$WORK/out")" = 1
  check "$p -h: the usage line first" bash -c 'head -n 1 "$1" | grep -q "^Usage: $2 "' _ "$WORK/out" "$p"
  check "$p -h: lists ${OTHER[$p]}" grep -q -- "^      ${OTHER[$p]} " "$WORK/out"
  check "$p -h: lists -h, --help" grep -qE -- '^  -h, --help +this help$' "$WORK/out"
  check "$p -h: lists --version" grep -qE -- '^      --version +print the version$' "$WORK/out"
  cp "$WORK/out" "$WORK/$p.help"

  if [ "$p" != pingpong_alltoall ]; then  # the one program built with smpicc only
    rc=0
    mpi 2 "$APPS_BIN/$p-mpi" --help >"$WORK/mpi.out" 2>/dev/null || rc=$?
    check "$p-mpi --help: exit 0 (got $rc)" test "$rc" = 0
    check "$p-mpi --help: the same text as $p -h under smpirun" cmp -s "$WORK/mpi.out" "$WORK/$p.help"
  fi
done

# A CHOICE option and a list callback: the value is named, quoted.
refused gcr "gcr: --algo: 'ring' is not one of mpi|recursive" --algo ring
refused pingpong_alltoall \
  "pingpong_alltoall: --alltoall-sizes: '1,x' is not a list of byte counts N,N,... (at most 32)" \
  --alltoall-sizes 1,x
# The one-sided sizes: whole bytes >= 1, none above --max.
refused calibrate "calibrate: --rma-sizes: '0': sizes must be >= 1 (got 0)" --rma-sizes 0
refused calibrate "calibrate: --rma-sizes: 'x' is not a size in bytes (e.g. 4096, 64KiB, 1MiB)" --rma-sizes 1,x
refused calibrate "calibrate: --rma-sizes: 2097152 bytes is above --max (1048576)" --max 1MiB --rma-sizes 1,2MiB
refused calibrate "calibrate: --rma-reps: '0' is not in 1 .. 100000" --rma-reps 0
# The options are read in order: what follows an operand is not parsed.
refused halo "halo: 'extra': unexpected argument (options start with --; see -h)" extra --width 0
# --version (SimGrid takes it under smpirun, as --help): rank 0 prints
# "PROG VERSION", once.
rc=0
mpi 2 "$APPS_BIN/gcr-mpi" --version >"$WORK/out" 2>/dev/null || rc=$?
check "gcr-mpi --version: exit 0 (got $rc)" test "$rc" = 0
check "gcr-mpi --version: one line 'gcr VERSION' ($(cat "$WORK/out"))" grep -qxE 'gcr [0-9]+\.[0-9]+\.[0-9]+' "$WORK/out"
check "gcr-mpi --version: once" test "$(wc -l <"$WORK/out")" = 1

# Run directly, without smpirun, an smpicc program says how to run it and
# exits 2 (apps/smpi_standalone.c) instead of dying of a segmentation fault;
# under smpirun the same file runs as ever (every test above).
for prog in transpose calibrate; do
  rc=0
  timeout 20 "$APPS_BIN/$prog" --help >"$WORK/out" 2>"$WORK/err" || rc=$?
  check "$prog run directly: exit 2 (got $rc)" test "$rc" = 2
  check "$prog run directly: the one line that says how to run it" \
    test "$(cat "$WORK/err")" = "this program was built by smpicc to run inside SimGrid's SMPI: run it with hnm-run (or smpirun); NAME-mpi is the same program for mpirun"
  check "$prog run directly: nothing on stdout" test ! -s "$WORK/out"
done

finish
