#!/bin/bash
# monc_halo.sh -- tests of the MONC halo-swap skeleton (apps/monc_halo.c,
# docs/skeletons/monc_halo.md):
#   1. --verify with Open MPI, 1 to 8 processes (primes, non-divisible
#      grids, 1 or 2 processes in a direction), every variant and packing;
#   2. the same under SMPI through hnm-run (fluid; graphene for some);
#   3. exact simulated times under fluid against closed forms derived by
#      hand, for every variant (2 ranks) and for p2p on 4 ranks;
#   4. invariants from the CSV: stages, messages, notifications, halo
#      points checked, defaults, payload or not;
#   5. bad input: non-zero exit, one clear message, no hang.
source "$(dirname "$0")/lib.sh"

APP="$APPS_BIN/monc_halo"
APP_MPI="$APPS_BIN/monc_halo-mpi"
need mpirun "$APP_MPI"
VARIANTS=(p2p fence pscw passive)
PACKS=(manual datatype)

# stages_of VARIANT PACK: phases of one swap (docs: p2p = [pack] exchange
# [unpack]; fence, pscw = [pack] put [unpack] reopen; passive = [pack] put
# notify [unpack]; the bracketed ones only with manual packing).
stages_of() {
  case "$1/$2" in
    p2p/manual) echo 3 ;;
    p2p/datatype) echo 1 ;;
    */manual) echo 4 ;;
    *) echo 2 ;;
  esac
}

# halo_points P CX CY NX NY NZ F D ITERS: halo points all ranks check.
# A rank's halo is (lx + 2D)(ly + 2D) - lx ly columns of NZ levels, F fields;
# summed over the cx x cy blocks (sum of lx over a row = NX, of ly over a
# column = NY): 2D cy NX + 2D cx NY + 4 D^2 P columns.
halo_points() {
  calc "$9 * $7 * $6 * (2 * $8 * $3 * $4 + 2 * $8 * $2 * $5 + 4 * $8 * $8 * $1)"
}

# check_run WHAT OUTPUT P CX CY VARIANT PACK NX NY NZ F D ITERS: the CSV
# lines and the verify line of one --verify run.
check_run() {
  local what=$1 out=$2 p=$3 cx=$4 cy=$5 v=$6 pack=$7 nx=$8 ny=$9 nz=${10} f=${11} d=${12} it=${13}
  local lines
  lines=$(grep '^monc_halo,halo_swap,' <<<"$out" || true)
  check "$what: $it CSV lines" test "$(grep -c . <<<"$lines")" -eq "$it"
  local line bad=0 notif=0 sync=window
  [ "$v" = passive ] && notif=$((8 * p))
  # How the start was taken (skel.h): a common simulated instant under
  # SMPI ("sim ..." cases), an MPI_Barrier with Open MPI ("mpi ...").
  [[ $what == mpi\ * ]] && sync=barrier
  while IFS= read -r line; do
    [ "$(csv_field "$line" 3)" = "$v" ] || bad=1
    [ "$(csv_field "$line" 4)" = "$p" ] || bad=1
    [ "$(csv_field "$line" 5)" = "cx=$cx;cy=$cy;nx=$nx;ny=$ny;nz=$nz;fields=$f;depth=$d;pack=$pack;notifications=$notif;sync=$sync" ] || bad=1
    [ "$(csv_field "$line" 6)" = "$(stages_of "$v" "$pack")" ] || bad=1
    [ "$(csv_field "$line" 7)" = "$((8 * p))" ] || bad=1
  done <<<"$lines"
  check "$what: algorithm, procs, params, stages, 8P messages" test "$bad" -eq 0
  check "$what: verify ok with every halo point" \
    test "$(grep '^verify,' <<<"$out" || true)" = "verify,monc_halo,ok,$(halo_points "$p" "$cx" "$cy" "$nx" "$ny" "$nz" "$f" "$d" "$it")"
}

# Cases: processes, expected grid, extra options. Global grid 15 x 13
# columns: blocks of unequal sizes almost everywhere; 1 process in a
# direction (the periodic self-exchange), 2 (both neighbours the same
# rank), primes, an explicit --cx/--cy and a depth of 3.
NX=15 NY=13 NZ=3 F=2 IT=2
CASES=("1 1 1" "2 2 1" "3 3 1" "4 2 2" "5 5 1" "6 3 2" "6 1 6 --cx 1 --cy 6" "7 7 1" "8 4 2 --depth 3")

# 1. Open MPI. Every variant and packing for 1, 2 and 4 processes (the
# small-grid cases), every variant with alternating packings for the rest
# (keeps the script short on 2 cores). With one process Open MPI's default
# one-sided component (osc rdma) finds no RDMA-capable transport (only
# btl self is active) and MPI_Win_create fails; osc pt2pt runs it. Open MPI
# 5 has no pt2pt, and its default (osc sm) runs one process: the default
# there.
if part mpi; then
  OSC_ONE=
  ompi_info --parsable 2>/dev/null | grep -q '^mca:osc:pt2pt:' && OSC_ONE=pt2pt
  for c in "${CASES[@]}"; do
    read -r p cx cy extra <<<"$c"
    d=2
    [[ "$extra" == *"--depth 3"* ]] && d=3
    for vi in "${!VARIANTS[@]}"; do
      v=${VARIANTS[$vi]}
      for pi in "${!PACKS[@]}"; do
        pack=${PACKS[$pi]}
        if [ "$p" != 1 ] && [ "$p" != 2 ] && [ "$p" != 4 ] && [ $(((vi + pi + p) % 2)) = 1 ]; then
          continue
        fi
        osc=
        [ "$p" = 1 ] && osc=$OSC_ONE
        # shellcheck disable=SC2086 # extra holds several options
        out=$(OMPI_MCA_osc=$osc mpi "$p" "$APP_MPI" --variant "$v" --pack "$pack" --nx $NX --ny $NY --nz $NZ \
          --fields $F --iterations $IT --verify $extra 2>&1) || true
        check_run "mpi $p ($cx x $cy) $v/$pack" "$out" "$p" "$cx" "$cy" "$v" "$pack" $NX $NY $NZ $F "$d" $IT
      done
    done
  done
fi
part sim || finish

# 2. SMPI through hnm-run: every case, variant and packing under fluid;
# graphene (limiters, rendez-vous above 64 KiB) for two grids.
for c in "${CASES[@]}"; do
  read -r p cx cy extra <<<"$c"
  d=2
  [[ "$extra" == *"--depth 3"* ]] && d=3
  models=("$FLUID")
  [ "$p" = 4 ] || [ "$p" = 7 ] && models+=(graphene)
  for m in "${models[@]}"; do
    for v in "${VARIANTS[@]}"; do
      for pack in "${PACKS[@]}"; do
        # shellcheck disable=SC2086
        out=$(sim "$m" "$p" "$APP" --variant "$v" --pack "$pack" --nx $NX --ny $NY --nz $NZ --fields $F \
          --iterations $IT --verify $extra 2>&1) || true
        check_run "sim $m $p ($cx x $cy) $v/$pack" "$out" "$p" "$cx" "$cy" "$v" "$pack" $NX $NY $NZ $F "$d" $IT
      done
    done
  done
done

# 3. Exact simulated times under fluid (flat32: 20 us between two nodes,
# node UP and DOWN links of B = 125e6 B/s, no limiter, no cross-traffic,
# max-min; SMPI adds 16 bytes to every message; below 64 KiB a send is
# detached and its transfer starts when the receive is posted).
#
# network/optim:Full: with SimGrid 3.32's default (Lazy) max-min update,
# concurrent flows on a route that also crosses a shared link that never
# saturates (the node limiters, which fluid sets to 1e20 B/s) are not
# always shared: e.g. 4 flows leave one node's UP link at B each. Plain
# smpirun shows it too (flat32 with its limiter at 1000Gbps,
# crosstraffic off); the Full update gives the max-min solution that the
# closed forms below describe.
#
# Common start (skel.h, sync=window): both ranks start each swap at the
# same simulated instant, nothing in flight; the time is the slowest rank's
# end minus that instant.
#
# 2 ranks: cx = 2, cy = 1, 16 x 8 columns, nz = 16, F = 2, D = 2: blocks of
# 8 x 8. Each rank sends to the other its west and east faces,
# a = F D 8 nz 8 + 16 = 4112 B on the wire, and 4 corners,
# c = F D D nz 8 + 16 = 1040 B; its north and south faces go to itself
# (loopback link, 1 us + a / 6e9 s: off the critical path; RMA puts to
# oneself are local copies in SMPI). The 6 flows of one direction share the
# sender's UP link and the receiver's DOWN link, the other direction's 6
# use the other two links: a direction's last flow ends P1 = 20 us + W/B
# after they start, W = 2a + 4c (the link is saturated throughout). The
# two ranks are symmetric, so every rank ends each stage at the same time.
#   p2p: all 12 flows start at once: time = P1, all in the exchange stage.
# SMPI's RMA (smpi_win.cpp): a put starts its transfer at once (no need for
# the target); flushes, fence, complete and wait wait for the puts; fence =
# linear barrier, wait for the puts, linear barrier; post/complete send
# 0 B (16 B on the wire) to the group, start/wait receive them; those are
# detached: they flow once the receive is posted, m = 20 us + 16/B.
#   passive: put stage P1 (the flush waits for the puts); then 6
#        notifications of 16 B share each UP link: N = 20 us + 6 x 16/B;
#        time = P1 + N.
#   pscw: MPI_Win_complete sends its 0 B message, then waits for its puts
#        (P1); MPI_Win_wait then posts the receive of the other's message,
#        which flows only then: put stage P1 + m. Reopen: MPI_Win_post's
#        message flows once the other's MPI_Win_start posts its receive,
#        right after: m. Time = P1 + 2m.
#   fence: closing fence = barrier, wait for the puts, barrier. Rank 1's
#        16 B barrier message to rank 0 (the root) flows at once (rank 0
#        posted its receive) and shares rank 1's UP link with its puts, as
#        rank 0's release does rank 0's: both directions carry 16 + W
#        bytes and the puts end at P0 = 20 us + (16 + W)/B. The second
#        barrier: rank 1's message reaches rank 0 at P0 + m, rank 0's
#        release rank 1 at P0 + 2m: put stage P0 + 2m (rank 1). Reopen
#        (MPI_MODE_NOPRECEDE: one barrier): rank 0 enters at P0 + m and
#        gets rank 1's message at P0 + 3m, rank 1 the release at P0 + 4m:
#        2m for both; time = P0 + 4m.
#   (Before the common start, each rank timed from its own exit of SMPI's
#   linear MPI_Barrier, which let rank 0 out m early: rank 0 then waited for
#   rank 1, e.g. p2p was m + P1, passive P0 + P1 + N, pscw 2 P0 + m, fence
#   2 P0 + 3m.)
# Manual and datatype packing move the same bytes (packing costs no
# simulated time: smpi/simulate-computation:no), so the times are equal.
B=125e6
a=$(calc "2 * 2 * 8 * 16 * 8 + 16")
c=$(calc "2 * 2 * 2 * 16 * 8 + 16")
W=$(calc "2 * $a + 4 * $c")
m=$(calc "20e-6 + 16 / $B")
P0=$(calc "20e-6 + (16 + $W) / $B")
P1=$(calc "20e-6 + $W / $B")
N=$(calc "20e-6 + 6 * 16 / $B")
declare -A T S
T[p2p]=$P1
S[p2p]=${T[p2p]}
T[passive]=$(calc "$P1 + $N")
S[passive]="$P1;$N"
T[pscw]=$(calc "$P1 + 2 * $m")
S[pscw]="$(calc "$P1 + $m");$m"
T[fence]=$(calc "$P0 + 4 * $m")
S[fence]="$(calc "$P0 + 2 * $m");$(calc "2 * $m")"
for v in "${VARIANTS[@]}"; do
  for pack in "${PACKS[@]}"; do
    out=$(sim "$FLUID" 2 --cfg=network/optim:Full "$APP" --variant "$v" --pack "$pack" --nx 16 --ny 8 --nz 16 \
      --fields 2 --iterations 2 2>&1) || true
    lines=$(grep '^monc_halo,halo_swap,' <<<"$out" || true)
    check "closed form $v/$pack: 2 lines" test "$(grep -c . <<<"$lines")" -eq 2
    while IFS= read -r line; do
      check_close "closed form $v/$pack: time" "$(csv_field "$line" 8)" "${T[$v]}" 1e-9
      # The stage list without the manual pack and unpack stages (0 s).
      IFS=';' read -r -a got <<<"$(csv_field "$line" 9)"
      IFS=';' read -r -a want <<<"${S[$v]}"
      if [ "$pack" = manual ]; then
        check "closed form $v/$pack: pack stage 0" test "${got[0]}" = 0
        if [ "$v" = fence ] || [ "$v" = pscw ]; then
          check "closed form $v/$pack: unpack stage 0" test "${got[2]}" = 0
          got=("${got[1]}" "${got[3]}")
        else
          check "closed form $v/$pack: unpack stage 0" test "${got[-1]}" = 0
          got=("${got[@]:1:${#got[@]}-2}")
        fi
      fi
      check "closed form $v/$pack: stage count" test "${#got[@]}" -eq "${#want[@]}"
      for k in "${!want[@]}"; do
        check_close "closed form $v/$pack: stage $k" "${got[$k]:-x}" "${want[$k]}" 1e-9
      done
    done <<<"$lines"
  done
done

# 4 ranks, p2p: 2 x 2 blocks of 8 x 8 (16 x 16 columns): every neighbour is
# another rank (x neighbour twice, y neighbour twice, diagonal 4 times), all
# 8 transfers of 4 x a + 4 x c leave each UP link and reach each DOWN link
# from the common start: time = 20 us + (4a + 4c)/B. (With the linear
# barrier it was 20 us + 3 x 16/B more: the others left it that late.)
t4=$(calc "20e-6 + (4 * $a + 4 * $c) / $B")
out=$(sim "$FLUID" 4 --cfg=network/optim:Full "$APP" --nx 16 --ny 16 --nz 16 --fields 2 2>&1) || true
line=$(grep '^monc_halo,halo_swap,' <<<"$out" || true)
check_close "closed form p2p 4 ranks" "$(csv_field "$line" 8)" "$t4" 1e-9

# The swap times do not depend on SMPI's barrier algorithm (fence excepted:
# MPI_Win_fence is SMPI's barrier, part of what it measures): 6 ranks
# under graphene (per-message overheads), linear vs recursive doubling.
for v in p2p pscw passive; do
  x=$(sim graphene 6 --cfg=smpi/barrier:ompi_basic_linear "$APP" --variant "$v" --nz 16 --fields 2 \
    --iterations 2 2>&1 | grep '^monc_halo,halo_swap,' || true)
  y=$(sim graphene 6 --cfg=smpi/barrier:ompi_recursivedoubling "$APP" --variant "$v" --nz 16 --fields 2 \
    --iterations 2 2>&1 | grep '^monc_halo,halo_swap,' || true)
  check "barrier independence $v: 2 lines each" test "$(grep -c . <<<"$x"),$(grep -c . <<<"$y")" = "2,2"
  for i in 1 2; do
    lx=$(sed -n "${i}p" <<<"$x")
    ly=$(sed -n "${i}p" <<<"$y")
    check_close "barrier independence $v line $i: time" "$(csv_field "$lx" 8)" "$(csv_field "$ly" 8)" 1e-9
    check "barrier independence $v line $i: same fields 1-7" test "$(cut -d, -f1-7 <<<"$lx")" = "$(cut -d, -f1-7 <<<"$ly")"
  done
done

# 4. Defaults (Brown et al. 2018: 16 x 16 columns of 256 levels per process, 30
# fields, depth 2, p2p, manual) and --no-payload: same simulated time,
# same counts.
out=$(sim "$FLUID" 4 "$APP" 2>&1) || true
with=$(grep '^monc_halo,halo_swap,' <<<"$out" || true)
check "defaults" test "$(csv_field "$with" 3),$(csv_field "$with" 5),$(csv_field "$with" 6),$(csv_field "$with" 7)" \
  = "p2p,cx=2;cy=2;nx=32;ny=32;nz=256;fields=30;depth=2;pack=manual;notifications=0;sync=window,3,32"
for v in "${VARIANTS[@]}"; do
  for pack in "${PACKS[@]}"; do
    args=(--variant "$v" --pack "$pack" --nz 64 --fields 4)
    w=$(sim "$FLUID" 6 "$APP" "${args[@]}" 2>&1 | grep '^monc_halo,halo_swap,' || true)
    wo=$(sim "$FLUID" 6 "$APP" "${args[@]}" --no-payload 2>&1 | grep '^monc_halo,halo_swap,' || true)
    check "no-payload $v/$pack: same line" test -n "$w" -a "$w" = "$wo"
  done
done
out=$(mpi 3 "$APP_MPI" --variant passive --pack datatype --no-payload --iterations 3 2>&1) || true
check "no-payload with Open MPI: 3 lines" test "$(grep -c '^monc_halo,halo_swap,passive,3,' <<<"$out")" -eq 3

# --help: usage on stdout from rank 0 only, exit 0. Under smpirun SimGrid
# takes --help for itself (its configuration help), so there: -h.
out=$(mpi 2 "$APP_MPI" --help 2>/dev/null) && rc=0 || rc=$?
check "--help exits 0" test "$rc" -eq 0
check "--help prints usage once" test "$(grep -c '^Usage: monc_halo' <<<"$out")" -eq 1
out=$(sim "$FLUID" 2 "$APP" -h 2>/dev/null) && rc=0 || rc=$?
check "-h under SMPI exits 0" test "$rc" -eq 0
check "-h under SMPI prints usage once" test "$(grep -c '^Usage: monc_halo' <<<"$out")" -eq 1

# 5. Bad input: non-zero exit, the message, within the timeout.
# expect_fail WHAT PATTERN LAUNCHER...
expect_fail() {
  local what=$1 pattern=$2 out rc
  shift 2
  out=$("$@" 2>&1) && rc=0 || rc=$?
  check "$what: non-zero exit (got $rc)" test "$rc" -ne 0 -a "$rc" -ne 124
  check "$what: message" grep -q -- "$pattern" <<<"$out"
}
expect_fail "unknown variant" "--variant: 'rdma' is not one of p2p|fence|pscw|passive" sim "$FLUID" 3 "$APP" --variant rdma
expect_fail "unknown packing" "--pack: 'pack' is not one of manual|datatype" sim "$FLUID" 3 "$APP" --pack pack
expect_fail "unknown option" "--halo: unknown" sim "$FLUID" 3 "$APP" --halo 2
expect_fail "missing value" "--fields: needs an argument" sim "$FLUID" 3 "$APP" --fields
expect_fail "fields 0" "--fields: '0' is not in 1 \\.\\. " sim "$FLUID" 3 "$APP" --fields 0
expect_fail "depth 0" "--depth: '0' is not in 1 \\.\\. " sim "$FLUID" 3 "$APP" --depth 0
expect_fail "nz 0" "--nz: '0' is not in 1 \\.\\. " sim "$FLUID" 3 "$APP" --nz 0
expect_fail "iterations 0" "--iterations: '0' is not in 1 \\.\\. " sim "$FLUID" 3 "$APP" --iterations 0
expect_fail "not a number" "--nx: '1x' is not a whole number" sim "$FLUID" 3 "$APP" --nx 1x
expect_fail "blocks thinner than the halo" "fewer than --depth 2" sim "$FLUID" 7 "$APP" --nx 13
expect_fail "depth deeper than a block" "fewer than --depth 5" sim "$FLUID" 4 "$APP" --nx 8 --ny 40 --depth 5
expect_fail "--cx does not divide" "--cx: '2' does not divide the 3 processes" sim "$FLUID" 3 "$APP" --cx 2
expect_fail "--cx x --cy" "--cx 2 x --cy 3 = 6 processes, but the job has 4" sim "$FLUID" 4 "$APP" --cx 2 --cy 3
expect_fail "verify without payload" "--verify: needs real data" sim "$FLUID" 2 "$APP" --verify --no-payload
expect_fail "mpi: unknown variant" "--variant: 'x' is not one of" mpi 2 "$APP_MPI" --variant x
expect_fail "mpi: --cy does not divide" "--cy: '4' does not divide the 6 processes" mpi 6 "$APP_MPI" --cy 4

finish
