# bench/workload.sh -- what bench/overhead.sh and bench/loggps.sh share
# (sourced by bash, from the repository's top folder): their command line
# and scratch folder (workload_setup), the median of a file of numbers
# (median), and the workload: one flat cluster of RANKS nodes (as many hosts
# as ranks, the fast case), ping-pongs of 1 B to 1 MiB and alltoalls of 16
# to 256 B. The alltoall sizes stay <= 256 B: above, SMPI switches to an
# algorithm that posts all P^2 messages at once, which takes more than 10
# minutes at 1024 ranks.
#   pingpong_workload DIR RANKS PROGRAM: writes DIR/p.xml and DIR/h, and
#   sets ARGS to smpirun's arguments (platform, hostfile, -np, options,
#   program and its arguments).
pingpong_workload() {
  local dir=$1 ranks=$2 prog=$3
  cat >"$dir/p.xml" <<XML
<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="n-" suffix="" radical="0-$((ranks - 1))" speed="1Gf" bw="1Gbps" lat="10us"
           sharing_policy="SPLITDUPLEX" bb_bw="1000Gbps" bb_lat="1us"/>
</platform>
XML
  for i in $(seq 0 $((ranks - 1))); do echo "n-$i"; done >"$dir/h"
  ARGS=(-platform "$dir/p.xml" -hostfile "$dir/h" -np "$ranks" --cfg=smpi/privatization:no --cfg=network/optim:Full
        --cfg=smpi/simulate-computation:no --log=root.thres:warning
        "$prog" --pingpong-sizes 1,1024,65536,1048576 --alltoall-sizes 16,64,128,256)
}

# workload_setup "$@": the benches' command line, [BUILD-DIR] [RANKS] [REPS]
# (defaults build, 1024, 5), into BUILD RANKS REPS, with PROG (the
# workload's program), RUN (hnm-run), tmp (a scratch folder removed on
# exit) and ARGS (pingpong_workload's).
workload_setup() {
  BUILD=${1:-build}
  RANKS=${2:-1024}
  REPS=${3:-5}
  PROG=$BUILD/apps/pingpong_alltoall
  RUN=$BUILD/bin/hnm-run
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  pingpong_workload "$tmp" "$RANKS" "$PROG"
}

# median FILE: the median of the numbers in FILE, one per line.
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
