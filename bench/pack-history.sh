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
WORK=${1:-/tmp/hnm-pack-history}
mkdir -p "$WORK"
mpicc -O2 bench/pack_history.c -o "$WORK/pack_history"
echo "# $(date -u '+%F %R') $(uptime | sed 's/.*load/load/')"
mpirun --allow-run-as-root --oversubscribe -np 1 "$WORK/pack_history" | tee "$WORK/table.txt"
