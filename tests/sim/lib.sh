# lib.sh -- shared helpers for the simulation tests (sourced by bash).
# Environment (set by ctest, see tests/sim/CMakeLists.txt):
#   HNM_RUN  path of hnm-run;  SIM_BIN  directory of the test programs;
#   DATA     tests/data of the source tree.
# check, check_close, refuse, skip, finish, calc, $WORK: tests/lib.sh.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# sg_at_least MAJOR MINOR: the installed SimGrid (the one the build found
# and the tests run) is at least MAJOR.MINOR. Where SimGrid's behaviour
# changed between versions, a test pins each version's value with it
# (docs/simgrid-versions.md).
SG_VERSION=$(pkg-config --modversion simgrid 2>/dev/null)
sg_at_least() {
  awk -v v="$SG_VERSION" -v maj="$1" -v min="$2" 'BEGIN { split(v, x, "."); exit !(x[1] > maj || (x[1] == maj && x[2] >= min)) }'
}
# sg_version: MAJOR.MINOR of the installed SimGrid (pinned files' names).
sg_version() {
  cut -d. -f1,2 <<<"$SG_VERSION"
}

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

# Small runs of the skeletons of apps/ (no payload), by name; each test
# adds transpose at the size its ranks need.
declare -A SKELETON_ARGS=(
  [gcr]="--n 2 --k 2 --no-payload"
  [halo]="--scale 0.0001 --width 3 --no-payload"
  [monc_halo]="--nz 16 --fields 2 --no-payload"
)

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

# full_zone FILE: a SimGrid 4.1 platform of one zone "z" with Full routing
# whose hosts, links and routes are the lines of stdin.
full_zone() {
  {
    printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
    printf '<platform version="4.1">\n  <zone id="z" routing="Full">\n'
    sed 's/^/    /'
    printf '  </zone>\n</platform>\n'
  } >"$1"
}

# loggps_check WHAT OUT L o g G s S Os Or: p2p_timing's output OUT for the
# scenarios of the array SC (K:SEND_DELAY:RECV_DELAY, a send and a recv line
# each, in order) against Degomme et al. 2013, Figure 1, from the LogGPS
# parameters alone (seconds, bytes; WHAT starts each check's name):
#   T1 = o + k Os, T2 = L + k g (k < s) or L + s g + (k - s) G, T3 = o + k Or;
#   k <= S: MPI_Send = T1, MPI_Recv = max(T1 + T2 - (tr - ts), 0) + T3;
#   k >  S: SMPI ends both sides of a rendez-vous at the same instant, so
#           both end at max(ts, tr) + X, X = 6o + 2L + k(Os + Or) + T2 (the
#           deviation docs/models.md documents); when the receiver is early
#           that is Figure 1(b)'s MPI_Recv = max(o + L - (tr - ts), 0) + o +
#           T5 + T1 + T2 + T3 with T5 = 2o + L, checked as such.
loggps_check() {
  local what=$1 out=$2 L=$3 o=$4 g=$5 G=$6 s=$7 S=$8 Os=$9 Or=${10}
  local sends recvs i k ts te tr re T1 T2 T3 T5 X start fig1
  mapfile -t sends < <(grep '^send' <<<"$out")
  mapfile -t recvs < <(grep '^recv' <<<"$out")
  check "${what}one line per scenario and side" [ "${#sends[@]}" -eq "${#SC[@]}" -a "${#recvs[@]}" -eq "${#SC[@]}" ]
  for i in "${!SC[@]}"; do
    read -r _ k ts te <<<"${sends[$i]}"
    read -r _ _ tr re <<<"${recvs[$i]}"
    T1=$(calc "$o + $k * $Os")
    T2=$(calc "$k < $s ? $L + $k * $g : $L + $s * $g + ($k - $s) * $G")
    T3=$(calc "$o + $k * $Or")
    if [ "$k" -le "$S" ]; then
      check_close "${what}k=$k ${SC[$i]} MPI_Send = T1" "$(calc "$te - $ts")" "$T1" 1e-9
      check_close "${what}k=$k ${SC[$i]} MPI_Recv" "$(calc "$re - $tr")" \
        "$(calc "($T1 + $T2 - ($tr - $ts) > 0 ? $T1 + $T2 - ($tr - $ts) : 0) + $T3")" 1e-9
    else
      X=$(calc "6 * $o + 2 * $L + $k * ($Os + $Or) + $T2")
      start=$(calc "$ts > $tr ? $ts : $tr")
      check_close "${what}k=$k ${SC[$i]} rendez-vous send end" "$te" "$(calc "$start + $X")" 1e-9
      check_close "${what}k=$k ${SC[$i]} rendez-vous recv end" "$re" "$(calc "$start + $X")" 1e-9
      if awk -v a="$tr" -v b="$ts" 'BEGIN { exit !(a <= b) }'; then
        T5=$(calc "2 * $o + $L")
        fig1=$(calc "($o + $L - ($tr - $ts) > 0 ? $o + $L - ($tr - $ts) : 0) + $o + $T5 + $T1 + $T2 + $T3")
        check_close "${what}k=$k ${SC[$i]} receiver early: MPI_Recv = Figure 1(b)" "$(calc "$re - $tr")" "$fig1" 1e-9
      fi
    fi
  done
}
