#!/usr/bin/env bash
# MPI_Pack / MPI_Unpack time per block of indexed types with irregular and
# regular block lengths against their number of blocks, on the real MPI
# (docs/calibration.md, "Pack costs": why the pack model charges irregular
# lengths past a history of runs rather than a cache footprint). Not a
# test; a few seconds.
#   bench/pack-history.sh [WORK-DIR]
# Prints bench/pack_history.c's table (ns per block).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
WORK=${1:-/tmp/hnm-pack-history}
bench_mpi_table pack_history "$WORK"
