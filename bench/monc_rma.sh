#!/bin/bash
# bench/monc_rma.sh -- monc_halo's RMA variants against P2P: one line per
# (model, processes, problem), the P2P time of one swap and each RMA
# variant's time as a ratio of it (docs/models.md, "One-sided
# communication"; docs/experiments.md, "MPI RMA against P2P").
#
#   bench/monc_rma.sh [BUILD] [--np LIST] [--model M]... [--platform default|flat] [--variants LIST]
#                     [--link BW,LAT] [--backbone shared|fatpipe|none] [--no-p2p] [--barrier ALGO] [--no-unlock-remedy]
#                     [-- MONC_HALO_ARGS...]
#
# --link BW,LAT: the flat cluster's node links (default 1Gbps,10us; e.g.
# 80Gbps,1us for a network of Cray Aries' order, Brown et al. 2018's).
# --variants: RMA variants to run (default fence,pscw,passive); --no-p2p:
# print their times only, not as ratios of a P2P run (whose time does not
# depend on a model's <rma>, so one model's P2P serves all).
# --no-unlock-remedy: SMPI's own MPI_Win_unlock, which walks each window's
# list of lockers (--cfg=hnm/unlock-remedy:no; docs/scale.md), to measure
# the CPU the plugin's remedy saves: the times are the same.
# Defaults: build/, --np 16, models graphene and fluid, the bundled
# platform (default), monc_halo's own defaults (Brown et al. 2018's weak
# scaling: 16 x 16 columns of 256 levels, 30 fields, depth 2 per process).
# --platform flat: a flat cluster of as many nodes as processes (1 Gb/s,
# 10 us SPLITDUPLEX node links, a 1000 Gb/s backbone), for counts beyond the
# bundled 32 nodes. --backbone: shared (default), fatpipe (SimGrid's
# FATPIPE: each flow gets up to 1000 Gb/s of it, none shares; but every
# flow then belongs to one max-min system, slow to simulate at thousands of
# nodes) or none (node links only: a non-blocking switch, the cheapest to
# simulate); weak scaling stays flat beyond the 1,000 nodes at 1 Gb/s that
# saturate the shared backbone only with fatpipe or none.
# Every run: hnm-run's exact mode (SimGrid's lazy update with the plugin's
# mend: max-min's answers), no simulated computation,
# --no-payload, 2 swaps (the second one reported), so the numbers are
# deterministic; smpi/allgather:rdb (recursive doubling), because
# MPI_Win_create's allgather, before any swap, costs the most: SMPI 3.32's
# default posts all of its messages at once and waits with waitany, O(P^2)
# per rank (7 s of CPU at 128 ranks), and the ring takes P - 1 steps of P
# messages (44 s of CPU at 1,024 ranks against 7.9 s with rdb's P log2 P
# messages); the swaps' times are the same to 1e-14 with each.
# --barrier ALGO: SMPI's barrier algorithm (smpi/barrier; default SMPI's
# own, linear), which MPI_Win_fence calls twice per fence. Prints the CPU
# time (user+sys) of each simulation and the load, since the machine is
# shared.
set -euo pipefail
BUILD=build
[ $# -gt 0 ] && [ "${1#-}" = "$1" ] && { BUILD=$1; shift; }
NPS=16 PLATFORM=default MODELS=() BARRIER=() REMEDY=() VARIANTS=fence,pscw,passive P2P=1 BB_SHARING=SHARED LINK_BW=1Gbps LINK_LAT=10us
while [ $# -gt 0 ]; do
  case "$1" in
    --np) NPS=$2; shift 2 ;;
    --model) MODELS+=("$2"); shift 2 ;;
    --platform) PLATFORM=$2; shift 2 ;;
    --variants) VARIANTS=$2; shift 2 ;;
    --link) LINK_BW=${2%,*}; LINK_LAT=${2#*,}; shift 2 ;;
    --no-p2p) P2P=0; shift ;;
    --backbone)
      case "$2" in shared) BB_SHARING=SHARED ;; fatpipe) BB_SHARING=FATPIPE ;; none) BB_SHARING=none ;;
        *) echo "monc_rma.sh: --backbone shared|fatpipe|none, not $2" >&2; exit 2 ;; esac
      shift 2 ;;
    --barrier) BARRIER=(--cfg=smpi/barrier:"$2"); shift 2 ;;
    --no-unlock-remedy) REMEDY=(--cfg=hnm/unlock-remedy:no); shift ;;
    --) shift; break ;;
    *) echo "monc_rma.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ ${#MODELS[@]} -eq 0 ] && MODELS=(graphene fluid)
APP_ARGS=("$@")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

platform_args() {
  local np=$1
  if [ "$PLATFORM" = default ]; then
    return
  fi
  local bb='bb_bw="1000Gbps" bb_lat="1us" bb_sharing_policy="'$BB_SHARING'"'
  [ "$BB_SHARING" = none ] && bb=
  cat >"$TMP/p$np.xml" <<XML
<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="n-" suffix="" radical="0-$((np - 1))" speed="1Gf" bw="$LINK_BW" lat="$LINK_LAT"
           sharing_policy="SPLITDUPLEX" limiter_link="$LINK_BW" $bb/>
</platform>
XML
  seq 0 $((np - 1)) | sed 's/^/n-/' >"$TMP/h$np"
  echo "-platform $TMP/p$np.xml -hostfile $TMP/h$np"
}

# swap MODEL NP VARIANT: the second swap's time (s); CPU time into $TMP/cpu.
swap() {
  local model=$1 np=$2 v=$3 out
  # shellcheck disable=SC2046 # platform_args is a list of words
  out=$( { /usr/bin/time -f '%U %S' -o "$TMP/cpu" "$BUILD/bin/hnm-run" --model "$model" $(platform_args "$np") \
    -np "$np" --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no \
    --cfg=smpi/allgather:rdb ${BARRIER[@]+"${BARRIER[@]}"} ${REMEDY[@]+"${REMEDY[@]}"} \
    --log=root.thres:critical "$BUILD/apps/monc_halo" --variant "$v" --no-payload --iterations 2 \
    "${APP_ARGS[@]}"; } 2>/dev/null | grep '^monc_halo,halo_swap,' | tail -1 | cut -d, -f8)
  [ -n "$out" ] || { echo "monc_rma.sh: $model -np $np --variant $v failed" >&2; exit 1; }
  echo "$out"
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), $(nproc) cores, load: $(uptime | sed 's/.*load average: //')"
echo "# monc_halo ${APP_ARGS[*]:-(defaults)}, platform $PLATFORM$([ "$PLATFORM" = flat ] && echo " ($LINK_BW, $LINK_LAT node links, backbone: $BB_SHARING)")${BARRIER[*]:+, ${BARRIER[*]}}${REMEDY[*]:+, ${REMEDY[*]}}"
printf '%-14s %6s %14s' model procs p2p_s
for v in ${VARIANTS//,/ }; do printf ' %14s' "$v"; done
printf ' %10s\n' cpu_s
for model in "${MODELS[@]}"; do
  for np in ${NPS//,/ }; do
    cpu=0 p2p=-
    if [ "$P2P" = 1 ]; then
      p2p=$(swap "$model" "$np" p2p)
      cpu=$(awk -v c="$cpu" '{print c + $1 + $2}' "$TMP/cpu")
    fi
    printf '%-14s %6s %14s' "$model" "$np" "$p2p"
    for v in ${VARIANTS//,/ }; do
      t=$(swap "$model" "$np" "$v")
      cpu=$(awk -v c="$cpu" '{print c + $1 + $2}' "$TMP/cpu")
      if [ "$P2P" = 1 ]; then
        printf ' %14s' "$(awk -v a="$t" -v b="$p2p" 'BEGIN { printf "%.3f", a / b }')"
      else
        printf ' %14s' "$t"
      fi
    done
    printf ' %10.1f\n' "$cpu"
  done
done
