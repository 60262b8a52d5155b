#!/usr/bin/env bash
# The sanitizer build: configure SOURCE into BUILD with HNM_SANITIZE=ON
# (ASan + UBSan + LeakSanitizer; the C parts only, no simulation), with
# CLANG when given (then libFuzzer targets too), build it and run its tests:
# the C unit tests, the bad-input suite, the synthetic fit, the fuzzers.
# A test of that build that was skipped (reliability.libfuzzer without
# clang) makes this one Skipped too (exit 77), never silently Passed.
#   sanitize.sh SOURCE BUILD [CLANG]
source "$(dirname "$0")/../lib.sh"
src=$1 build=$2 clang=${3:-}
cc=()
if [ -n "$clang" ] && [ -x "$clang" ] && [ -x "${clang}++" ]; then
  cc=(-DCMAKE_C_COMPILER="$clang" -DCMAKE_CXX_COMPILER="${clang}++")
fi
cmake -S "$src" -B "$build" -DHNM_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cc[@]}" >"$build.cmake.log" 2>&1
st=$?
check_eq "sanitizer build: cmake configures ($(tail -5 "$build.cmake.log")): exit status" "$st" 0
[ "$st" -eq 0 ] || finish
nice cmake --build "$build" -j "$(nproc)" >"$build.build.log" 2>&1
st=$?
check_eq "sanitizer build: it builds ($(tail -50 "$build.build.log")): exit status" "$st" 0
[ "$st" -eq 0 ] || finish
(cd "$build" && ctest --output-on-failure --no-tests=error -j "$(nproc)") | tee "$build.ctest.log"
check_eq "sanitizer build: its tests pass: ctest's exit status" "${PIPESTATUS[0]}" 0
if grep -q '(Skipped)' "$build.ctest.log"; then
  skip "tests of the sanitizer build did not run: $(grep '(Skipped)' "$build.ctest.log" | tr -s ' ' | tr '\n' ';')"
fi
finish
