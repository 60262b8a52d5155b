#!/usr/bin/env bash
# The sanitizer build: configure SOURCE into BUILD with HNM_SANITIZE=ON
# (ASan + UBSan + LeakSanitizer; the C parts only, no simulation), with
# CLANG when given (then libFuzzer targets too), build it and run its tests:
# the C unit tests, the bad-input suite, the synthetic fit, the fuzzers.
#   sanitize.sh SOURCE BUILD [CLANG]
set -euo pipefail
src=$1 build=$2 clang=${3:-}
cc=()
if [ -n "$clang" ] && [ -x "$clang" ] && [ -x "${clang}++" ]; then
  cc=(-DCMAKE_C_COMPILER="$clang" -DCMAKE_CXX_COMPILER="${clang}++")
fi
cmake -S "$src" -B "$build" -DHNM_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cc[@]}" >"$build.cmake.log" 2>&1 ||
  { cat "$build.cmake.log"; exit 1; }
nice cmake --build "$build" -j "$(nproc)" >"$build.build.log" 2>&1 || { tail -50 "$build.build.log"; exit 1; }
cd "$build" && ctest --output-on-failure -j "$(nproc)"
