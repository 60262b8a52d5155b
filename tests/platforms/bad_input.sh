#!/usr/bin/env bash
# hnm-platform refuses bad input: exit status 2, exactly one line on stderr
# naming the option at fault, nothing on standard output, and nothing left in
# the output directory (neither the files nor their temporaries).
#
# Environment (ctest, tests/platforms/CMakeLists.txt): HNM_PLATFORM.
source "$(dirname "$0")/../sim/lib.sh"

work=$WORK

# refused PATTERN ARGS...: hnm-platform ARGS -o $WORK/out/p.xml --hostfile
# $WORK/out/p.hosts refuses (tool_refuses, tests/lib.sh).
refused() { tool_refuses hnm-platform "$1" "$HNM_PLATFORM" "${@:2}" -o "$WORK/out/p.xml" --hostfile "$WORK/out/p.hosts"; }

# Sizes and shapes.
refused "--dims: '8x0x8': dimension 2 is 0$" torus --dims 8x0x8
refused "--dims: '-8x8': dimension 1 is negative$" torus --dims=-8x8
refused "--dims: '8xax8': dimension 2 \('a'\) is not a positive integer$" torus --dims 8xax8
refused "--dims: '8x8x': dimension 3 is empty$" torus --dims 8x8x
refused "--dims: '1000x1000x1000' makes more than 100000000 nodes$" torus --dims 1000x1000x1000
refused "--dims: '99999999999999999999x2': dimension 1 is more than 100000000$" torus --dims 99999999999999999999x2
refused "--dims: .*more than 16 dimensions$" torus --dims 2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2
refused "--shape: '4x4x4x4': 4 dimensions, a BG/Q shape has 5" bgq --shape 4x4x4x4
refused "--shape: '4x4x4x4x4': E is 4, must be 2" bgq --shape 4x4x4x4x4
refused "--shape: '4x4x4x4x2x2': more than 5 dimensions" bgq --shape 4x4x4x4x2x2
refused "--shape: '768' is neither a named shape" bgq --shape 768
refused "--down: 'a,4': level 1 \('a'\) is not a positive integer" fattree --down a,4
refused "--up: '1' has 1 level, --down '4,4' has 2" fattree --up 1
refused "--levels: '3' but --down '4,4' has 2 levels" fattree --levels 3
refused "--down: '1000,1000,1000' makes more than 100000000 nodes" fattree --down 1000,1000,1000 --up 1,1,1 --links 1,1,1
refused "--groups: 6 groups for 2 routers per chassis" dragonfly --groups 6 --routers 2
refused "--nodes: '0' is 0" dragonfly --nodes 0
refused "--blue-links: '-1' is negative" dragonfly --blue-links -1
refused "--cabinet-sizes: '39,0,30': cabinet 2 is 0" cluster --cabinet-sizes 39,0,30
refused "--cabinets: '2000' is not in 1 \\.\\. 1024" cluster --cabinets 2000 --nodes 1
refused "--cabinets: needs --nodes too" cluster --cabinets 4
refused "--cabinets: cannot be combined with --cabinet-sizes" cluster --cabinets 4 --nodes 2 --cabinet-sizes 1,2
refused "--ranks-per-host: '0' is 0" torus --ranks-per-host 0
refused "--ranks-per-host: '10000' on each of 100000 hosts" torus --dims 100000 --ranks-per-host 10000

# Presets and scaling.
refused "--preset: 'torus-XL' is not a torus preset \(torus-M, torus-L\)" torus --preset torus-XL
refused "--preset: 'fattree-M' is not a torus preset" torus --preset fattree-M
refused "--dims: cannot be combined with --preset" torus --preset torus-M --dims 4x4
refused "--preset: unknown" bgq --preset 512
refused "--scale: '0' is not in \(0, 1\]" torus --scale 0
refused "--scale: '1.5' is not in \(0, 1\]" dragonfly --preset dragonfly-MM --scale 1.5
refused "--scale: 'abc' is not a number" torus --scale abc
refused "--scale: unknown" cluster --preset graphene --scale 0.5

# Units, policies, factors.
refused "--bw: '10' has no unit" torus --bw 10
refused "--bw: '0Gbps' must be positive" torus --bw 0Gbps
refused "--bw: '10Gbs': unknown unit" torus --bw 10Gbs
refused "--lat: '-1us' is negative" torus --lat=-1us
refused "--lat: '5parsecs': unknown unit" fattree --lat 5parsecs
refused "--loopback-bw: '6' has no unit" dragonfly --loopback-bw 6
refused "--cabinet-limiter: '13' has no unit" cluster --cabinet-limiter 13
refused "--cabinet-sharing: 'SPLITDUPLEX' is not SHARED or FATPIPE" cluster --cabinet-sharing SPLITDUPLEX
refused "--cabinet-routes: 'full' is not core or pairs" cluster --cabinet-routes full
refused "--cabinet-routes" torus --cabinet-routes pairs
refused "--sharing: FATPIPE: SimGrid 3.32 creates" torus --sharing FATPIPE
refused "--sharing: 'FULL' is not a sharing policy" bgq --sharing FULL
refused "--speed: '1' has no unit" torus --speed 1
refused "--speed: '1Kif' is not a speed" torus --speed 1Kif
refused "--usable: '1.5' is not in \(0, 1\]" bgq --usable 1.5
refused "--limiter: '-1' is negative" cluster --limiter -1
refused "--limiter: '1.5x' is not a plain number" cluster --limiter 1.5x
refused "--limiter: 8 switches for 4 hosts" fattree --down 2,2 --up 2,2 --links 1,1 --limiter 1.5
refused "--placement: 'random' is not a placement" torus --placement random

# Ranges (platforms/hnm_quantity.h, docs/platforms.md): 1e20 to
# 1e300 were taken, and --limiter 1e300 made an infinite limiter_link.
for fam in torus bgq fattree dragonfly cluster; do
  refused "--bw: '1e300Bps' is above 1e\+15Bps \(not a link's bandwidth" $fam --bw 1e300Bps
  refused "--bw: '1e20Bps' is above 1e\+15Bps" $fam --bw 1e20Bps
  refused "--loopback-bw: '1e16Bps' is above 1e\+15Bps" $fam --loopback-bw 1e16Bps
  refused "--speed: '1e20f' is above 1e\+18f \(not a host's speed" $fam --speed 1e20f
  refused "--limiter: '1e300' is not 0 nor in 1e-06 \.\. 1e\+06 \(a factor" $fam --limiter 1e300
done
refused "--cabinet-bw: '1e300Bps' is above 1e\+15Bps" cluster --cabinet-bw 1e300Bps
refused "--cabinet-limiter: '1e21Bps' is above 1e\+15Bps" cluster --cabinet-limiter 1e21Bps
refused "--limiter: '1e-7' is not 0 nor in" torus --limiter 1e-7
# The bounds themselves are taken.
refused "--limiter: '2' x the links' 1e\+15Bps is above 1e\+15Bps" torus --bw 1e15Bps --limiter 2
out=$("$HNM_PLATFORM" torus --dims 2x2 --bw 1e15Bps --speed 1e18f --limiter 1 2>"$WORK/err")
st=$?
check_eq "--bw 1e15Bps --speed 1e18f --limiter 1: exit status" "$st" 0
check "--bw 1e15Bps: written back" grep -q ' bw="1000TBps"' <<<"$out"
check "--speed 1e18f: written back" grep -q ' speed="1Ef"' <<<"$out"
out=$("$HNM_PLATFORM" torus --dims 2x2 --bw 1GBps --limiter 1e6 2>"$WORK/err")
check "--limiter 1e6: written back" grep -q ' limiter_link="1000TBps"' <<<"$out"

# Command line.
refused "--frobnicate: unknown" torus --frobnicate 3
refused "unexpected argument 'extra'" torus extra
refused "unknown family 'tours'" tours --dims 8x8

# Cases that cannot take refused()'s trailing -o and --hostfile.
err=$work/err
mkdir -p "$work/alone"
out=$("$HNM_PLATFORM" torus --dims 2>"$err")
status=$?
check "missing value: exit 2 (got $status)" [ "$status" -eq 2 ]
check "missing value: one line naming --dims ($(cat "$err"))" grep -qxE "hnm-platform: --dims: needs an argument" "$err"
out=$("$HNM_PLATFORM" torus -o "$work/alone/p.xml" --hostfile "$work/alone/p.xml" 2>"$err")
status=$?
check "hostfile = -o: exit 2 (got $status)" [ "$status" -eq 2 ]
check "hostfile = -o: one line naming --hostfile ($(cat "$err"))" \
  grep -qxE "hnm-platform: --hostfile: '.*/p.xml' is also the -o file" "$err"
check "hostfile = -o: nothing written" [ -z "$(ls -A "$work/alone")" ]

# An output directory that does not exist: refused before anything is written.
"$HNM_PLATFORM" torus -o "$work/missing/p.xml" 2>"$err"
status=$?
check "missing directory: exit 2 (got $status)" [ "$status" -eq 2 ]
check "missing directory: one line naming -o ($(cat "$err"))" grep -qE "^hnm-platform: -o: .*cannot create" "$err"
"$HNM_PLATFORM" torus --hostfile "$work/missing/p.hosts" >"$work/stdout.xml" 2>"$err"
status=$?
check "missing hostfile directory: exit 2 (got $status)" [ "$status" -eq 2 ]
check "missing hostfile directory: nothing on stdout" [ ! -s "$work/stdout.xml" ]

# A write that fails (a full device) exits 1 (failed work) with one line naming it.
if [ -w /dev/full ]; then
  "$HNM_PLATFORM" torus >/dev/full 2>"$err"
  status=$?
  check "full device: exit 1 (got $status)" [ "$status" -eq 1 ]
  check "full device: one line ($(cat "$err"))" [ "$(wc -l <"$err")" -eq 1 ]
  check "full device: says standard output and why ($(cat "$err"))" \
    grep -q "^hnm-platform: standard output: write error: No space left on device$" "$err"
fi

# The same kind of command, when good, writes exactly its two files.
rm -rf "$work/out" && mkdir "$work/out"
"$HNM_PLATFORM" torus --dims 8x8x8 -o "$work/out/p.xml" --hostfile "$work/out/p.hosts" 2>"$err"
status=$?
check "good command: exit 0 (got $status: $(cat "$err"))" [ "$status" -eq 0 ]
check "good command: exactly p.hosts and p.xml ($(ls -A "$work/out" | tr '\n' ' '))" \
  [ "$(ls -A "$work/out" | tr '\n' ' ')" = "p.hosts p.xml " ]
check "good command: quiet" [ ! -s "$err" ]

finish
