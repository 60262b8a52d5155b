# lib.sh -- helpers for the skeleton tests (sourced by bash), on top of
# tests/sim/lib.sh (check, check_close, calc, finish, SIMOPTS, hnm).
# Environment (set by ctest): APPS_BIN (built skeletons: NAME for SMPI,
# NAME-mpi for the real MPI), HNM_RUN, DATA, SIM_BIN.
source "$(dirname "${BASH_SOURCE[0]}")/../sim/lib.sh"

# The part of a skeleton's script to run, its first argument: mpi, the
# --verify sweep with the real MPI alone (ctest apps.NAME.mpi, label
# real-mpi: no SimGrid code runs in it); sim, all the rest (ctest
# apps.NAME: SMPI, closed forms, invariants, bad input). None: both.
APPS_PART=${1:-all}
case $APPS_PART in
  all | mpi | sim) ;;
  *) echo "usage: $0 [mpi|sim]" >&2 && exit 2 ;;
esac
# part WHICH: whether this run includes part WHICH.
part() { [ "$APPS_PART" = all ] || [ "$APPS_PART" = "$1" ]; }

# mpi NP PROGRAM ARGS...: run PROGRAM (a path) with the real MPI library,
# oversubscribed on this 2-core machine, as root if need be.
mpi() {
  local np=$1
  shift
  # A TMPDIR per run: Open MPI's session directory is made there (tests/lib.sh).
  # odls_base_sigkill_timeout 0: when a rank exits with an error (the
  # refusal tests), mpirun signals the job's processes without its default
  # 1 s pauses between SIGCONT, SIGTERM and SIGKILL: 0.3 s instead of 2.3 s
  # a refusal, the same exit status and messages.
  TMPDIR=$(mktemp -d "$TMPDIR/mpirun.XXXXXX") timeout 300 mpirun --allow-run-as-root --oversubscribe \
    --mca btl self,vader --mca odls_base_sigkill_timeout 0 -np "$np" "$@"
}

# sim MODEL NP PROGRAM ARGS...: run PROGRAM under hnm-run on the 32-node
# flat platform (tests/data/platforms/flat32.xml: one non-blocking switch,
# 1 Gb/s SPLITDUPLEX node links of 10 us, node limiters) with SIMOPTS.
sim() {
  local model=$1 np=$2
  shift 2
  timeout 300 "$HNM_RUN" --model "$model" -platform "$DATA/platforms/flat32.xml" \
    -hostfile "$DATA/platforms/flat32.hosts" -np "$np" "${SIMOPTS[@]}" "$@"
}

# csv_field LINE N: the N-th comma-separated field of LINE (1-based).
csv_field() { cut -d, -f"$2" <<<"$1"; }
