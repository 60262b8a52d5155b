#!/usr/bin/env bash
# How often the fit's report names a decade's two bands, or its size-to-size
# scatter, on generated round trips (bench/bands-detect.c says which):
# the detection rate on band shapes, the false-alarm rate on unimodal ones.
# docs/calibration.md, "The decade's median: two bands, and parts that do
# not add up". Not a test.
#   bench/bands-detect.sh [BUILD-DIR] [TRIALS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(cd "${1:-build}" && pwd)
TRIALS=${2:-200} SEED=${3:-1}
for lib in calibration/libhnmfit.a model/libhnmmodel.a core/libhnmbase.a; do
  [ -f "$BUILD/$lib" ] || { echo "bench/bands-detect.sh: no $BUILD/$lib: build first (make build)" >&2; exit 2; }
done
OUT=$(mktemp -d "${TMPDIR:-/tmp}/hnm-bands.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
cc -O2 -std=c11 -D_GNU_SOURCE -Icalibration -Imodel -Icore bench/bands-detect.c \
  "$BUILD/calibration/libhnmfit.a" "$BUILD/model/libhnmmodel.a" "$BUILD/core/libhnmbase.a" \
  $(pkg-config --libs libxml-2.0) -lm -o "$OUT/bands-detect"
echo "bench/bands-detect.sh: $TRIALS data sets per cell, seed $SEED, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
"$OUT/bands-detect" "$TRIALS" "$SEED"
