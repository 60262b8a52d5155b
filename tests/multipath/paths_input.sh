#!/usr/bin/env bash
# multipath-mpi --paths FILE reads its path file as hnm-route reads its
# pattern file (core/hnm_input.h): a named pipe or a device is
# refused without blocking, a line is at most 64 KiB and holds no NUL byte,
# so /dev/zero and a sparse file of a gigabyte end at their first line. It
# used to hang on a named pipe, grow to 4.2 GB on /dev/zero and take 1 GB
# for the sparse file. Each refusal: exit 2, the reason first on stderr
# (rank 0's skel_fail; mpirun's own lines follow), nothing on stdout, under
# 20 s and 512 MiB of address space. Environment: APPS_BIN.
source "$(dirname "$0")/../sim/lib.sh"
need mpirun "$APPS_BIN/multipath-mpi"
cd "$WORK" || exit 1

# paths_refused WHAT LINE FILE: multipath-mpi on 2 ranks refuses FILE with LINE.
paths_refused() {
  local what=$1 line=$2 file=$3 st=0
  (ulimit -v 524288; TMPDIR=$(mktemp -d "$WORK/mpirun.XXXXXX") timeout 20 mpirun --allow-run-as-root --oversubscribe \
    --mca btl self,vader --mca odls_base_sigkill_timeout 0 -np 2 "$APPS_BIN/multipath-mpi" --paths "$file" \
    >"$WORK/out" 2>"$WORK/err") || st=$?
  check_eq "$what: exit status" "$st" 2
  check_eq "$what: first line on stderr" "$(head -1 "$WORK/err")" "$line"
  check "$what: nothing on stdout" [ ! -s "$WORK/out" ]
}

mkfifo fifo
paths_refused "a named pipe" "multipath: fifo: not a regular file (a named pipe)" fifo
paths_refused "/dev/zero" "multipath: /dev/zero: not a regular file (a character device)" /dev/zero
truncate -s 1G sparse
paths_refused "a sparse file of 1 GiB" "multipath: sparse:1: line longer than 64 KiB (not a measurement file)" sparse
{ printf 'lp 0 1 8 1 A+ 0 1\nlp 0 '; printf '\0'; printf ' 1 8 1 A+ 0 1\n'; } >nul
paths_refused "a NUL byte" "multipath: nul:2: NUL byte in the line (not text)" nul
printf 'lp 0 1 8 1 A+ 0 1' >noeol
paths_refused "no end of line" "multipath: noeol:1: truncated line (no end of line)" noeol
printf 'lp 0 1 1e300 1 A+ 0 1\n' >huge
paths_refused "1e300 bytes" "multipath: huge:1: not a path line (METHOD SRC DST BYTES HOPS DIRS RANKS)" huge
finish
