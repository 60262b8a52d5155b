#!/usr/bin/env bash
# MPI_Pack / MPI_Unpack time per block of a vector against the stride between
# its blocks, on the real MPI (docs/calibration.md, "Pack costs": why a jump
# of the pack model weighs 1 at multiples of 4 KiB, 1/2 at odd multiples of
# 2 KiB, 1/4 at odd multiples of 1 KiB and 0 elsewhere). Not a test; a few
# seconds.
#   bench/pack-stride.sh [WORK-DIR]
# Prints bench/pack_stride.c's table (block_B stride_B n pack_ns unpack_ns,
# ns per block), then for 16-byte blocks the unpack time per block at each
# stride over its time at a 512-byte stride, at 512 and 4,096 blocks.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
WORK=${1:-/tmp/hnm-pack-stride}
bench_mpi_table pack_stride "$WORK"
echo "# 16-byte blocks, unpack per block / the same at a 512-byte stride"
awk 'NR > 1 && $1 == 16 { u[$2, $3] = $5; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
  END { printf "%-9s %8s %8s\n", "stride_B", "n=512", "n=4096"
        for (i = 1; i <= n; i++) printf "%-9s %8.2f %8.2f\n", order[i], u[order[i], 512] / u[512, 512], u[order[i], 4096] / u[512, 4096] }' \
  "$WORK/table.txt"
