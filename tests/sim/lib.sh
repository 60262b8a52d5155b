# lib.sh -- shared helpers for the simulation tests (sourced by bash).
# Environment (set by ctest, see tests/sim/CMakeLists.txt):
#   HNM_RUN  path of hnm-run;  SIM_BIN  directory of the test programs;
#   DATA     tests/data of the source tree.
# check, check_close, refuse, skip, finish, calc, $WORK: tests/lib.sh.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# Options that make the simulated clock move only through the network model:
# no benchmarked computation, no time injected by MPI_Wtime.
SIMOPTS=(--cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:no
         --log=root.thres:warning)

# The textbook flow model: T = L + (k + 16)/B alone on a route, max-min
# sharing, no factor, overhead or limiter, SMPI's default thresholds. The
# instrument of the tests whose subject is the platform, the routing, the
# sharing or a skeleton; the bundled `fluid` is fitted to graphene's data
# (scripts/bundled-models) and is tested as such where it is the subject.
FLUID=$(cd "$(dirname "${BASH_SOURCE[0]}")/../data/models" && pwd)/textbook-fluid.xml

# fluid_factor NAME: lat-factor or bw-factor of the bundled fluid model
# (its one segment), for closed forms T = lat-factor L + (k + 16) /
# (bw-factor B) on any route of latency L and narrowest bandwidth B.
fluid_factor() {
  grep -o " $1=\"[^\"]*\"" "$(dirname "${BASH_SOURCE[0]}")/../../model/models/fluid.xml" | head -1 | cut -d'"' -f2
}

# hnm MODEL PLATFORM HOSTFILE NP PROGRAM ARGS... : stdout of the simulation.
hnm() {
  local model=$1 plat=$2 hosts=$3 np=$4
  shift 4
  "$HNM_RUN" --model "$model" -platform "$plat" -hostfile "$hosts" -np "$np" "${SIMOPTS[@]}" "$@"
}

# plain PLATFORM HOSTFILE NP PROGRAM ARGS... : plain smpirun, SimGrid's own model.
plain() {
  local plat=$1 hosts=$2 np=$3
  shift 3
  smpirun -platform "$plat" -hostfile "$hosts" -np "$np" "${SIMOPTS[@]}" "$@"
}
