#!/usr/bin/env bash
# Skeletons at scale: wall time, CPU time, peak memory and CPU per message
# for each skeleton, process count and simulator, on hnm-platform clusters of
# 32-node cabinets (one host per rank). Not a test: prints a Markdown table
# (docs/scale.md) and, for every fast or list row, the simulated-time
# difference to the exact (hybrid) row of the same run.
#
#   bench/scale.sh [BUILD-DIR]
#
# Environment (defaults in brackets):
#   SKELETONS  which skeletons                          [gcr halo transpose]
#   SIMS       simulators: hybrid (hnm-run --model graphene), fast (the same
#              with --fast), list (hybrid with SimGrid's own list of
#              detached transfers, --cfg=hnm/detached-remedy:no), fluid
#              (hnm-run --model fluid), smpirun (plain smpirun, SimGrid's
#              own model)                              [hybrid fast fluid smpirun]
#   GCR_PROCS / HALO_PROCS / TRANSPOSE_PROCS            [512 .. 16384 / 512 .. 8192 / 512 .. 2048]
#   CAP        seconds per run; a simulator that exceeds it at one size is
#              not run at larger sizes of that skeleton  [600]
# Every run uses the settings docs/scale.md explains: privatization off
# (the skeletons have no global state), 128 KiB stacks, no computation
# benchmarking, shared no-payload buffers. No tcmalloc (hnm-run's default).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${1:-build}
CAP=${CAP:-600}
read -r -a SKELS <<<"${SKELETONS:-gcr halo transpose}"
read -r -a SIMLIST <<<"${SIMS:-hybrid fast fluid smpirun}"
for sim in "${SIMLIST[@]}"; do
  case $sim in
    hybrid | fast | list | fluid | smpirun) ;;
    *) echo "bench/scale.sh: unknown simulator '$sim' in SIMS (hybrid fast list fluid smpirun)" >&2; exit 2 ;;
  esac
done
read -r -a GCR_P <<<"${GCR_PROCS:-512 1024 2048 4096 8192 16384}"
read -r -a HALO_P <<<"${HALO_PROCS:-512 1024 2048 4096 8192}"
read -r -a TRANSPOSE_P <<<"${TRANSPOSE_PROCS:-512 1024 2048}"
RUN=$BUILD/bin/hnm-run
for f in "$RUN" "$BUILD/bin/hnm-platform" "$BUILD/apps/gcr"; do
  [ -x "$f" ] || { echo "bench/scale.sh: $f is missing: build first (make build)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

SIMOPTS=(--cfg=smpi/privatization:no --cfg=contexts/stack-size:128 --cfg=smpi/simulate-computation:no
         --cfg=smpi/shared-malloc-blocksize:1073741824 --log=root.thres:critical)
declare -A ARGS=(
  [gcr]="--n 2 --k 2 --no-payload"
  [halo]="--scale 0.0001 --width 3 --no-payload"
  [transpose]="--nx 1024 --ny 512 --nz 64 --algo ring --k 4 --no-payload"
)

# run SKEL P SIM: one run; prints "wall cpu rss_mb status" and leaves the
# skeleton's CSV in $tmp/out.
run() {
  local skel=$1 p=$2 sim=$3 cmd
  case $sim in
    hybrid) cmd=("$RUN" --model graphene) ;;
    fast) cmd=("$RUN" --model graphene --fast) ;;
    list) cmd=("$RUN" --model graphene --cfg=hnm/detached-remedy:no) ;;
    fluid) cmd=("$RUN" --model fluid) ;;
    smpirun) cmd=(smpirun) ;;
  esac
  # shellcheck disable=SC2086
  /usr/bin/time -f "TIME %e %U %S %M" -o "$tmp/time" timeout "$CAP" "${cmd[@]}" -platform "$tmp/p$p.xml" \
    -hostfile "$tmp/h$p" -np "$p" "${SIMOPTS[@]}" "$BUILD/apps/$skel" ${ARGS[$skel]} >"$tmp/out" 2>"$tmp/err"
  local status=$? wall user sys rss
  read -r _ wall user sys rss < <(grep '^TIME' "$tmp/time")
  echo "${wall:-0} $(awk -v u="${user:-0}" -v s="${sys:-0}" 'BEGIN { printf "%.1f", u + s }') $(((${rss:-0} + 512) / 1024)) $status"
}

# The operation line each skeleton's row reports: its last CSV line
# (gcr: the call; halo: the exchange; transpose: the last transposition).
result_line() { grep -v '^program' "$tmp/out" | grep -v '^verify' | tail -1; }

printf '| skeleton | processes | simulator | wall s | CPU s | peak MB | messages | CPU us/message | simulated s | vs exact |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for skel in "${SKELS[@]}"; do
  case $skel in
    gcr) procs=("${GCR_P[@]}") ;;
    halo) procs=("${HALO_P[@]}") ;;
    transpose) procs=("${TRANSPOSE_P[@]}") ;;
    *) echo "bench/scale.sh: unknown skeleton '$skel'" >&2; exit 2 ;;
  esac
  declare -A capped=()
  for p in "${procs[@]}"; do
    # Cabinets of 32 nodes, or of P / 1024 beyond 32,768 processes
    # (hnm-platform's limit is 1024 cabinets).
    npc=$((p > 32768 ? (p + 1023) / 1024 : 32))
    [ -f "$tmp/p$p.xml" ] ||
      "$BUILD/bin/hnm-platform" cluster --cabinets $(((p + npc - 1) / npc)) --nodes "$npc" -o "$tmp/p$p.xml" --hostfile "$tmp/h$p" ||
      exit 2
    exact=""
    for sim in "${SIMLIST[@]}"; do
      if [ -n "${capped[$sim]:-}" ]; then continue; fi
      echo "bench/scale.sh: $skel $p $sim ..." >&2
      read -r wall cpu rss status < <(run "$skel" "$p" "$sim")
      if [ "$status" -ne 0 ]; then
        if [ "$status" -eq 124 ]; then what="over ${CAP} s"; capped[$sim]=1
        else what="failed ($status): $(grep -v '^\[' "$tmp/err" | tail -1 | head -c 80)"; fi
        printf '| %s | %d | %s | %s | | | | | %s | |\n' "$skel" "$p" "$sim" "$wall" "$what"
        continue
      fi
      line=$(result_line)
      msgs=$(cut -d, -f7 <<<"$line")
      sim_s=$(cut -d, -f8 <<<"$line")
      [ "$sim" = hybrid ] && exact=$sim_s
      diff=""
      if { [ "$sim" = fast ] || [ "$sim" = list ]; } && [ -n "$exact" ]; then
        diff=$(awk -v a="$sim_s" -v b="$exact" 'BEGIN { printf "%+.3f%%", 100 * (a - b) / b }')
      fi
      per=$(awk -v c="$cpu" -v m="$msgs" 'BEGIN { if (m > 0) printf "%.0f", 1e6 * c / m }')
      printf '| %s | %d | %s | %s | %s | %s | %s | %s | %.6g | %s |\n' "$skel" "$p" "$sim" "$wall" "$cpu" "$rss" \
        "$msgs" "$per" "$sim_s" "$diff"
    done
  done
  unset capped
done
