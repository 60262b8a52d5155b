#!/usr/bin/env bash
# bench/platforms.sh [BUILD_DIR] [--full-load] -- cost of hnm-platform and of
# loading its platforms in SimGrid (a benchmark, not a test). Prints:
#   1. wall time and peak RSS of generating every Zheng & Marguinaud 2018 preset at full
#      size with its hostfile, plus graphene and a 1.2-million-node cluster
#      of 1024 cabinets (1,047,552 zoneRoutes: the streaming case);
#   2. the time SimGrid 3.32 takes to load a 16,384-node platform of each
#      family (tests/platforms/platform_load: simgrid_load_platform only);
#   2b. the load time of a fat tree as it grows (SimGrid builds it in
#      quadratic time);
#   3. with --full-load, the load of the full-size torus and dragonfly
#      presets (minutes, up to 15 GB of memory).
# Figures: /usr/bin/time -f "%e s %M KB" (elapsed seconds, peak RSS).
# Results are recorded in docs/platforms.md#performance.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

BUILD=build
FULL=0
for a in "$@"; do
  case $a in
    --full-load) FULL=1 ;;
    *) BUILD=$a ;;
  esac
done
GEN=$BUILD/bin/hnm-platform
LOAD=$BUILD/tests/platforms/platform_load
bench_need "$GEN" "$LOAD" /usr/bin/time
bench_work

bench_machine "$(uname -r)"
echo

# measure OUT CMD...: run CMD under /usr/bin/time, print "seconds KB" on OUT's line.
measure() {
  /usr/bin/time -f "%e s %M KB" -o "$work/time" "$@" >"$work/stdout" 2>"$work/stderr" || {
    echo "FAILED: $*" >&2
    cat "$work/stderr" >&2
    return 1
  }
  cat "$work/time"
}

echo "## 1. Generation (XML + hostfile)"
printf '%-14s %-48s %10s %10s %10s %s\n' preset command hosts xml_bytes host_lines "time / peak RSS"
gen() {
  local name=$1
  shift
  local t
  t=$(measure "$GEN" "$@" -o "$work/$name.xml" --hostfile "$work/$name.hosts")
  printf '%-14s %-48s %10s %10s %10s %s\n' "$name" "$*" "$(grep -o 'radical="[0-9]*-[0-9]*"' "$work/$name.xml" |
    awk -F'[-"]' '{ n += $3 - $2 + 1 } END { print n }')" "$(stat -c %s "$work/$name.xml")" \
    "$(wc -l <"$work/$name.hosts")" "$t"
}
gen graphene cluster --preset graphene
for p in torus-M torus-L; do gen "$p" torus --preset "$p"; done
for p in fattree-M fattree-L; do gen "$p" fattree --preset "$p"; done
for p in dragonfly-MM dragonfly-SL dragonfly-LS dragonfly-ML; do gen "$p" dragonfly --preset "$p"; done
gen cluster-1.2M cluster --cabinets 1024 --nodes 1172
rm -f "$work"/*.xml "$work"/*.hosts
echo

echo "## 2. SimGrid load, 16,384 nodes per family (platform_load: simgrid_init + simgrid_load_platform)"
printf '%-10s %-58s %s\n' family command "result / time / peak RSS"
load() {
  local name=$1
  shift
  "$GEN" "$@" -o "$work/$name.xml" 2>/dev/null
  local t
  t=$(measure "$LOAD" "$work/$name.xml" --log=root.thres:critical)
  printf '%-10s %-58s %s / %s\n' "$name" "$*" "$(cat "$work/stdout")" "$t"
  rm -f "$work/$name.xml"
}
load cluster cluster --cabinets 32 --nodes 512
load torus torus --dims 32x32x16
load fattree fattree --down 16,32,32 --up 1,16,32 --links 1,1,1
load dragonfly dragonfly --groups 8 --chassis 8 --routers 16 --nodes 16
load bgq bgq --shape 8x8x8x16x2
echo

echo "## 2b. SimGrid load of a full-bisection fat tree as it grows (construction is quadratic)"
printf '%-10s %-58s %s\n' hosts command "result / time / peak RSS"
load 4096 fattree --down 8,16,32 --up 1,8,16 --links 1,1,1
load 16384 fattree --down 16,32,32 --up 1,16,32 --links 1,1,1
load 32768 fattree --down 16,32,64 --up 1,16,32 --links 1,1,1
load 65536 fattree --down 16,64,64 --up 1,16,64 --links 1,1,1
echo

if [ "$FULL" = 1 ]; then
  echo "## 3. SimGrid load, full-size presets"
  printf '%-10s %-58s %s\n' preset command "result / time / peak RSS"
  for p in torus-M torus-L; do load "$p" torus --preset "$p"; done
  # fattree-M takes tens of minutes and fattree-L hours (section 2b): run
  # them by hand if you must.
  for p in dragonfly-MM dragonfly-SL dragonfly-LS dragonfly-ML; do load "$p" dragonfly --preset "$p"; done
fi
