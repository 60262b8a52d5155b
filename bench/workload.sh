# bench/workload.sh -- the workload bench/overhead.sh and bench/loggps.sh
# share (sourced by bash): one flat cluster of RANKS nodes (as many hosts
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
