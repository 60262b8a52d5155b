#!/usr/bin/env bash
# Every tool's output file is written without damaging what the user named
# (hnm_out, core/hnm_out.h): for hnm-platform -o and --hostfile, hnm-route
# --paths, hnm-calibrate fit -o, hnm-compare run -o and hnm-run --link-load
# (written by libhnm.so at the end of the simulation):
#   -o /dev/stdout   the content arrives on stdout, /dev/stdout stays a symlink;
#   -o /dev/null     exit 0, /dev/null stays a character device;
#   -o /dev/full     the write error reported (exit 1: failed work),
#                    /dev/full untouched;
#   -o LINK          LINK stays a symlink to the same file, whose content is new;
#   -o DIRECTORY     exit 2, an existing hostfile untouched, nothing left behind.
# Each case runs under `timeout`. Environment: HNM_PLATFORM, HNM_ROUTE,
# HNM_CALIBRATE, HNM_COMPARE, HNM_RUN, CMP_BIN, DATA (tests/reliability/CMakeLists.txt).
source "$(dirname "$0")/../sim/lib.sh"
cd "$WORK"
T=60

# Inputs of hnm-calibrate fit: noise-free times of a one-segment model
# (send 1 us + 1 ns/B, recv 2 us + 1 ns/B, L 10 us, B 1e9 B/s; eager to 64 KiB).
awk 'BEGIN { print "op,size,start,duration"
  for (i = 0; i <= 24; i++) { k = 2 ^ i
    for (r = 0; r < 3; r++) {
      T = 10e-6 + k / 1e9; so = 1e-6 + k * 1e-9; ro = 2e-6 + k * 1e-9
      printf "send,%d,0,%.9g\n", k, k <= 65536 ? so : T
      printf "recv,%d,0,%.9g\n", k, k <= 65536 ? ro : T
      printf "pingpong,%d,0,%.9g\n", k, k <= 65536 ? 2 * (so + T + ro) : 2 * T } } }' > p2p.csv

PROG=$CMP_BIN/sendrecv
TWO=$DATA/platforms/two.xml
SIMS=()
for o in "${SIMOPTS[@]}"; do SIMS+=("--sim-opt=$o"); done

# tool NAME OUT: the command line of tool NAME writing its output to OUT.
tool() {
  case $1 in
    platform) echo "$HNM_PLATFORM" torus --dims 2x2 -o "$2" ;;
    hostfile) echo "$HNM_PLATFORM" torus --dims 2x2 -o plat.xml --hostfile "$2" ;;
    route) echo "$HNM_ROUTE" --shape 2x2x2x2x2 --pattern subset --csv --paths "$2" ;;
    calibrate) echo "$HNM_CALIBRATE" fit p2p.csv --protocol 65536,65536 --no-plots --report rep -o "$2" ;;
    compare) echo "$HNM_COMPARE" run --model fluid --np 2 --platform "$TWO" ${SIMS[*]} --log-dir logs -o "$2" -- "$PROG" ;;
    linkload) echo "$HNM_RUN" --model fluid -platform "$TWO" -hostfile "$DATA/platforms/two.hosts" -np 2 ${SIMOPTS[*]} \
      --link-load "$2" "$PROG" ;;
  esac
}
# What the output starts with.
head_of() {
  case $1 in
    platform) echo '<?xml' ;;
    hostfile) echo 'node-0' ;;
    route) echo '# hnm-route' ;;
    calibrate) echo '<?xml' ;;
    compare) echo 'index,program' ;;
    linkload) echo 'link,role' ;;
  esac
}
# The exit status of a failed write (docs/reliability.md): 2, nothing left;
# 1 for hnm-run's --link-load, written at the end of a simulation that is
# not undone.
write_error_status() { echo 1; }
# nothing_left DIR...: no temporary (.NAME.XXXXXX) left in the directories.
nothing_left() { [ -z "$(find "$@" -maxdepth 1 -name '.*.??????' 2>/dev/null)" ]; }

for t in platform hostfile route calibrate compare linkload; do
  rm -rf rep logs plat.xml
  # -o /dev/stdout: content on stdout, the symlink kept.
  timeout $T $(tool $t /dev/stdout) > out.txt 2> err.txt
  st=$?
  check "$t /dev/stdout: exit 0 (got $st: $(head -c 200 err.txt))" [ $st -eq 0 ]
  check "$t /dev/stdout: content on stdout" grep -q "^$(head_of $t)" out.txt
  check "$t /dev/stdout: still a symlink" [ -L /dev/stdout ]
  # -o /dev/null.
  rm -rf rep logs plat.xml
  timeout $T $(tool $t /dev/null) > /dev/null 2> err.txt
  st=$?
  check "$t /dev/null: exit 0 (got $st: $(head -c 200 err.txt))" [ $st -eq 0 ]
  check "$t /dev/null: still a character device" [ -c /dev/null ]
  # -o /dev/full: an error, reported, the device untouched.
  rm -rf rep logs plat.xml
  timeout $T $(tool $t /dev/full) > /dev/null 2> err.txt
  st=$?
  check_eq "$t /dev/full: exit status" "$st" "$(write_error_status $t)"
  check "$t /dev/full: write error reported ($(head -c 200 err.txt))" grep -qi "write error\|No space" err.txt
  check "$t /dev/full: still a character device" [ -c /dev/full ]
  # -o LINK: the link kept, its target updated.
  rm -rf rep logs plat.xml target
  mkdir target
  if [ $t = compare ]; then : > target/file; else echo old > target/file; fi
  ln -sfn target/file link
  timeout $T $(tool $t link) > /dev/null 2> err.txt
  st=$?
  check "$t symlink: exit 0 (got $st: $(head -c 200 err.txt))" [ $st -eq 0 ]
  check "$t symlink: still a symlink to target/file" [ -L link -a "$(readlink link)" = target/file ]
  # (hnm-compare appends to its CSV and refuses a file that is not one: its
  # target starts empty and gets the header and a row.)
  check "$t symlink: target updated" grep -q "^$(head_of $t)" target/file
  check "$t symlink: nothing left behind" nothing_left . target
  # -o DIRECTORY: exit 2, nothing written, an existing hostfile untouched.
  rm -rf rep logs plat.xml dir
  mkdir dir
  echo old > hosts
  if [ $t = platform ]; then
    refuse "$t directory" "'dir'" timeout $T "$HNM_PLATFORM" torus --dims 2x2 -o dir --hostfile hosts
  else
    # shellcheck disable=SC2046
    refuse "$t directory" "'dir'" timeout $T $(tool $t dir)
  fi
  check "$t directory: the existing hostfile untouched" [ "$(cat hosts)" = old ]
  check "$t directory: directory still empty" [ -z "$(ls -A dir)" ]
  check "$t directory: nothing left behind" nothing_left .
done

# hnm-platform: a failing platform write leaves the existing hostfile as it was.
echo old > hosts
timeout $T "$HNM_PLATFORM" torus --dims 2x2 -o /dev/full --hostfile hosts > /dev/null 2> err.txt
check "platform /dev/full with --hostfile: the hostfile untouched" [ "$(cat hosts)" = old ]
check "platform /dev/full with --hostfile: nothing left behind" nothing_left .
# hnm-linkplot writes PREFIX.dat and PREFIX.gp through the same writer (and
# gnuplot writes PREFIX.png): a symlinked PREFIX.dat keeps its link; a FIFO
# given as the link-load file is refused at once, naming it.
if [ -n "${HNM_LINKPLOT:-}" ]; then
  printf 'link,role,a,b,c,bandwidth_Bps,bytes,busy_s,mean_util,peak_util\ng01,global,0,1,0,1e9,1,1,0.2,0.5\n' > ll.csv
  rm -rf target && mkdir target && echo old > target/map.dat
  ln -sfn target/map.dat map.dat
  timeout $T "$HNM_LINKPLOT" map ll.csv -o map > /dev/null 2> err.txt
  st=$?
  check "linkplot symlink: exit 0 (got $st: $(head -c 200 err.txt))" [ $st -eq 0 ]
  check "linkplot symlink: still a symlink" [ -L map.dat -a "$(readlink map.dat)" = target/map.dat ]
  check "linkplot symlink: target updated" grep -q '^# global links' target/map.dat
  check "linkplot symlink: nothing left behind" nothing_left . target
  # A data file that cannot be written (a link to /dev/full): the work
  # failed, 1, with one line; the script beside it is not left behind.
  rm -f map.dat map.gp && ln -s /dev/full map.dat
  timeout $T "$HNM_LINKPLOT" map ll.csv -o map > /dev/null 2> err.txt
  st=$?
  check "linkplot data to /dev/full: exit 1 (got $st: $(head -c 200 err.txt))" [ $st -eq 1 ]
  check "linkplot data to /dev/full: one line, the write error" \
    [ "$(wc -l < err.txt)" -eq 1 -a -n "$(grep "'map.dat': write error" err.txt)" ]
  check "linkplot data to /dev/full: nothing left behind" nothing_left .
  rm -f map.dat
  rm -f ll.fifo && mkfifo ll.fifo
  refuse "linkplot FIFO input: no hang, the line names it" 'll\.fifo' timeout $T "$HNM_LINKPLOT" map ll.fifo -o fifo
  check "linkplot FIFO input: nothing written" [ ! -e fifo.dat -a ! -e fifo.gp ]
fi
finish
