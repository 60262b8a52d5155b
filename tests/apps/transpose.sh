#!/bin/bash
# transpose.sh -- tests of the spectral-transposition skeleton (apps/transpose.c,
# docs/skeletons/transpose.md):
#   1. --verify with the real MPI, 1..8 processes, every algorithm, a grid
#      divisible by almost nothing (13 x 11 x 9), several process grids;
#   2. the same --verify under SMPI (hnm-run, fluid and graphene);
#   3. exact simulated times under fluid against closed forms;
#   4. the stages / messages invariants of each algorithm;
#   5. the default grid, --scale and the process-grid choice (params column);
#   6. bad input: refused with a message, non-zero exit, no hang.
source "$(dirname "$0")/lib.sh"

T="$APPS_BIN/transpose"
TM="$APPS_BIN/transpose-mpi"
need mpirun "$TM"
GRID=(--nx 13 --ny 11 --nz 9)
NPOINTS=$((13 * 11 * 9))
ALGOS=("mpi" "burst" "bruck" "pairwise" "ring --k 1" "ring --k 2" "ring --k 3" "ring --k 100")

# verify_ok WHAT OUTPUT ITERATIONS: the run printed verify,transpose,ok,<6 x
# iterations x points> (every element checked after each of the six
# transpositions; the sixth is the round trip).
verify_ok() {
  local want="verify,transpose,ok,$((6 * $3 * NPOINTS))"
  check "$1: $want" grep -qx "$want" <<<"$2"
}

# ---------------------------------------------------------------- 1. real MPI
if part mpi; then
  for np in 1 2 3 4 5 6 7 8; do
    for algo in "mpi" "burst" "bruck" "pairwise" "ring --k 2"; do
      # shellcheck disable=SC2086
      out=$(mpi "$np" "$TM" "${GRID[@]}" --algo $algo --verify 2>&1) || true
      verify_ok "mpi np=$np $algo" "$out" 1
    done
  done
  for case in "7 1" "8 3" "5 100"; do
    out=$(mpi "${case% *}" "$TM" "${GRID[@]}" --algo ring --k "${case#* }" --verify 2>&1) || true
    verify_ok "mpi np=${case% *} ring --k ${case#* }" "$out" 1
  done
  # Other process grids: one long row (cx = 8, only the rows communicate), one
  # long column, 3 x 2; two iterations once.
  for layout in "8 --cx 8" "8 --cy 8" "6 --cx 3"; do
    np=${layout%% *}
    for algo in "bruck" "pairwise" "ring --k 3"; do
      # shellcheck disable=SC2086
      out=$(mpi "$np" "$TM" "${GRID[@]}" ${layout#* } --algo $algo --verify 2>&1) || true
      verify_ok "mpi np=$layout $algo" "$out" 1
    done
  done
  out=$(mpi 5 "$TM" "${GRID[@]}" --algo bruck --iterations 2 --verify 2>&1) || true
  verify_ok "mpi np=5 bruck 2 iterations" "$out" 2
fi
part sim || finish

# ------------------------------------------------------------------ 2. SMPI
# (every algorithm at 1, 2, 3, 5 and 8 processes: the real MPI's sweep above
# has every count; here the subject is SMPI's delivery of the same data)
for np in 1 2 3 5 8; do
  for algo in "${ALGOS[@]}"; do
    # shellcheck disable=SC2086
    out=$(sim "$FLUID" "$np" "$T" "${GRID[@]}" --algo $algo --verify 2>&1) || true
    verify_ok "sim "$FLUID" np=$np $algo" "$out" 1
  done
done
for layout in "8 --cx 8" "8 --cy 8" "6 --cx 3" "12"; do
  np=${layout%% *}
  extra=${layout#"$np"}
  for algo in "${ALGOS[@]}"; do
    # shellcheck disable=SC2086
    out=$(sim graphene "$np" "$T" "${GRID[@]}" $extra --algo $algo --verify 2>&1) || true
    verify_ok "sim graphene np=$layout $algo" "$out" 1
  done
done

# ------------------------------------------------------- 3. exact, under fluid
# flat32 under fluid: between two nodes, latency L = 10 us (UP) + 0 + 0 +
# 10 us (DOWN) = 20 us; each node has its own UP and DOWN link of B = 125e6
# B/s, shared max-min by the flows leaving (UP) or entering (DOWN) it; a
# message of k bytes moves k + 16 bytes; alone on its links it takes
# T(k) = L + (k + 16) / B. Flows that start together share the bandwidth
# phase together (the latency phase consumes no bandwidth).
#
# The timed region starts at the common start of skel_sync (skel.h,
# sync=window): every rank starts the transposition at the same simulated
# instant, nothing else in flight (the previous line's report ended at
# every rank). The time of a line is the max over ranks of the algorithm's
# time when all start together; data blocks are all of k bytes (divisible
# grids). Detached (k < 65536) or rendez-vous, a transfer starts when both
# ends have posted, here at the common start.
# (Before, the time started when the rank left SMPI's linear
# MPI_Barrier(MPI_COMM_WORLD), which releases rank 0 d(P) = L + 16 (P - 1)/B
# before the others; rank 0 then waited for its partners, and every line
# with n > 1 was d(P) + the times below.)
L=20e-6
B=125e6
tk() { calc "$L + ($1 + 16) / $B"; }

# field N LINE: the N-th CSV field; stage_time I LINE: the I-th stage time.
field() { cut -d, -f"$1" <<<"$2"; }
stage_time() { cut -d, -f9 <<<"$2" | cut -d';' -f"$1"; }

# expect_line WHAT OUTPUT OP TIME [STAGE_TIMES...]: the line of OP has, to
# 1e-9, time TIME and these stage times, and as many stages as given.
expect_line() {
  local what=$1 out=$2 op=$3 time=$4
  shift 4
  local line
  line=$(grep "^transpose,$op," <<<"$out" | head -1) || true
  check "$what $op: line present" test -n "$line"
  check "$what $op: $# stages" test "$(field 6 "$line")" = "$#"
  check_close "$what $op: time" "$(field 8 "$line")" "$time" 1e-9
  local i=1
  for st in "$@"; do
    check_close "$what $op: stage $i" "$(stage_time "$i" "$line")" "$st" 1e-9
    i=$((i + 1))
  done
}

# 3a. P = 3, 6 x 6 x 4: cx = 1, cy = 3. The row transpositions (n = 1) are
# local copies: time 0, no stage. yz_to_xz and xz_to_yz exchange, in each
# direction, blocks of 2 x 2 x 4 doubles: k = 128 B.
#   burst, ring-2 (= ring-(n-1)), and mpi (SMPI 3.32's default alltoallv
#   is its non-blocking ialltoallv: all sends and receives posted at once;
#   reported with 0 stages): each node has 2 flows out and 2 in, all at
#   B/2, in one stage:  L + 2(k+16)/B
#   ring-1, bruck (stage s sends block i+2^s, one block each), pairwise
#   (n = 3: to i+s, from i-s): 2 stages of one flow per link:
#     T(k) then T(k)
one=$(calc "$L + 2 * 144 / $B")
two1=$(calc "$(tk 128)")
two=$(calc "$two1 + $(tk 128)")
for algo in burst "ring --k 2" mpi "ring --k 1" bruck pairwise; do
  # shellcheck disable=SC2086
  out=$(sim "$FLUID" 3 "$T" --nx 6 --ny 6 --nz 4 --algo $algo 2>&1) || true
  for op in yz_to_xz xz_to_yz; do
    case $algo in
      burst | "ring --k 2") expect_line "P=3 $algo" "$out" "$op" "$one" "$one" ;;
      mpi) expect_line "P=3 $algo" "$out" "$op" "$one" ;;
      *) expect_line "P=3 $algo" "$out" "$op" "$two" "$two1" "$(tk 128)" ;;
    esac
  done
  for op in grid_to_yz xz_to_spectral spectral_to_xz yz_to_grid; do
    expect_line "P=3 $algo" "$out" "$op" 0
  done
done

# 3b. P = 4 with --cx 1 (cy = 4), 16 x 16 x 4: the column transpositions
# exchange blocks of 4 x 4 x 4 doubles, k = 512 B.
#   burst, ring-3, mpi: 3 flows out and in per node, all at B/3:
#     L + 3(k+16)/B (mpi: no stage reported)
#   ring-1, pairwise (XOR partners): 3 stages of one flow per link:
#     T(k), T(k), T(k)
#   ring-2: stage 1 has 2 flows per link at B/2, stage 2 one flow:
#     L + 2(k+16)/B, T(k)
#   bruck: 2 stages of one message of 2 blocks (positions 1, 3 then 2, 3):
#     T(2k), T(2k)
t512=$(tk 512)
declare -A want4 # the stage times; the time is their sum
want4[burst]=$(calc "$L + 3 * 528 / $B")
want4[ring-3]=${want4[burst]}
want4[ring-1]="$(calc "$t512") $t512 $t512"
want4[pairwise]=${want4[ring-1]}
want4[ring-2]="$(calc "$L + 2 * 528 / $B") $t512"
want4[bruck]="$(calc "$(tk 1024)") $(tk 1024)"
for algo in burst ring-3 ring-1 pairwise ring-2 bruck mpi; do
  args=(--algo "${algo%-*}")
  [ "${algo#ring-}" != "$algo" ] && args+=(--k "${algo#ring-}")
  out=$(sim "$FLUID" 4 "$T" --nx 16 --ny 16 --nz 4 --cx 1 "${args[@]}" 2>&1) || true
  for op in yz_to_xz xz_to_yz; do
    if [ "$algo" = mpi ]; then
      expect_line "P=4x1 $algo" "$out" "$op" "${want4[burst]}"
    else
      read -r -a w <<<"${want4[$algo]}"
      expect_line "P=4x1 $algo" "$out" "$op" "$(calc "$(IFS=+; echo "${w[*]}")")" "${w[@]}"
    fi
  done
done

# 3c. P = 4 on the default 2 x 2 process grid, 64 x 64 x 32: every one of
# the six transpositions exchanges, inside pairs, blocks of 32 x 32 x 16
# doubles, k = 131072 B (rendez-vous): each pair's two flows use disjoint
# links, so every line is T(k), in one stage, for every algorithm.
big=$(tk 131072)
for algo in burst bruck pairwise "ring --k 1" mpi; do
  # shellcheck disable=SC2086
  out=$(sim "$FLUID" 4 "$T" --nx 64 --ny 64 --nz 32 --algo $algo 2>&1) || true
  for op in grid_to_yz yz_to_xz xz_to_spectral spectral_to_xz xz_to_yz yz_to_grid; do
    if [ "$algo" = mpi ]; then
      expect_line "P=2x2 $algo" "$out" "$op" "$big"
    else
      expect_line "P=2x2 $algo" "$out" "$op" "$big" "$big"
    fi
  done
done

# ------------------------------------------------------------ 4. invariants
# For each line: comm and n follow Figure 3 (rows: n = cx for grid_to_yz,
# xz_to_spectral and their inverses; columns: n = cy for yz_to_xz and
# xz_to_yz); stages = 1 (burst), ceil(log2 n) (bruck), ceil((n-1)/k)
# (ring-k), n-1 (pairwise), 0 for all when n = 1; as many stage times;
# messages = (P/n) sub-communicators x n(n-1) (burst, ring, pairwise) or
# x n ceil(log2 n) (bruck); mpi: 0 stages, 0 messages (not visible).
ceil_log2() {
  local s=0
  while ((1 << s < $1)); do s=$((s + 1)); done
  echo "$s"
}
check_invariants() {
  local what=$1 out=$2 iterations=$3 lines=0
  local prog op alg procs params stages msgs time st kv
  while IFS=, read -r prog op alg procs params stages msgs time st; do
    [ "$prog" = transpose ] || continue
    lines=$((lines + 1))
    local -A p=()
    local -a kvs sts
    IFS=';' read -r -a kvs <<<"$params"
    for kv in "${kvs[@]}"; do p[${kv%%=*}]=${kv#*=}; done
    local n=${p[n]} want_comm want_n want_stages per
    case $op in
      yz_to_xz | xz_to_yz) want_comm=columns want_n=${p[cy]} ;;
      *) want_comm=rows want_n=${p[cx]} ;;
    esac
    check "$what $op: comm ${p[comm]} = $want_comm" test "${p[comm]}" = "$want_comm"
    check "$what $op: n $n = $want_n" test "$n" = "$want_n"
    check "$what $op: cx x cy = P" test $((p[cx] * p[cy])) = "$procs"
    case $alg in
      mpi) want_stages=0 per=0 ;;
      burst) want_stages=$((n > 1 ? 1 : 0)) per=$((n * (n - 1))) ;;
      bruck) want_stages=$(ceil_log2 "$n") per=$((n * want_stages)) ;;
      pairwise) want_stages=$((n - 1)) per=$((n * (n - 1))) ;;
      ring-*)
        local k=${alg#ring-}
        want_stages=$(((n - 1 + k - 1) / k)) per=$((n * (n - 1)))
        ;;
      *) want_stages=x per=x ;;
    esac
    check "$what $op $alg n=$n: stages $stages = $want_stages" test "$stages" = "$want_stages"
    IFS=';' read -r -a sts <<<"$st"
    check "$what $op $alg: $stages stage times" test "${#sts[@]}" = "$stages"
    check "$what $op $alg n=$n: messages $msgs = $((procs * per / n))" test "$msgs" = $((procs * per / n))
  done <<<"$out"
  check "$what: $((6 * iterations)) lines" test "$lines" = $((6 * iterations))
}

for layout in "8" "8 --cx 1" "8 --cx 8" "6 --cx 3" "7" "12" "5 --cy 1"; do
  np=${layout%% *}
  extra=${layout#"$np"}
  for algo in "mpi" "burst" "bruck" "pairwise" "ring --k 1" "ring --k 2" "ring --k 3" "ring --k 5" "ring --k 100"; do
    # shellcheck disable=SC2086
    out=$(sim "$FLUID" "$np" "$T" "${GRID[@]}" $extra --algo $algo --no-payload 2>&1) || true
    check_invariants "np=$layout $algo" "$out" 1
  done
done
out=$(sim "$FLUID" 6 "$T" "${GRID[@]}" --algo bruck --iterations 3 --no-payload 2>&1) || true
check_invariants "np=6 bruck 3 iterations" "$out" 3
check "iteration column" test "$(grep -c ';iteration=2;sync=window,' <<<"$out")" = 6

# ------------------------------------------- 5. grid, scale, process grid
first_params() { grep '^transpose,grid_to_yz,' <<<"$1" | head -1 | cut -d, -f5 || true; }
# Table 3 by default (28800 x 14400 x 256); --nz 1 keeps it small enough
# for one process (no communication at all then).
out=$(mpi 1 "$TM" --no-payload --nz 1 2>&1) || true
check "default grid" grep -q '^nx=28800;ny=14400;nz=1;cx=1;cy=1;' <<<"$(first_params "$out")"
# --scale 1e-6: each dimension x 0.01, rounded: 288 x 144 x 3 (2.56).
out=$(mpi 2 "$TM" --scale 1e-6 --no-payload 2>&1) || true
check "--scale 1e-6" grep -q '^nx=288;ny=144;nz=3;cx=1;cy=2;' <<<"$(first_params "$out")"
out=$(mpi 2 "$TM" --scale 1e-6 --ny 20 --no-payload 2>&1) || true
check "--scale with --ny" grep -q '^nx=288;ny=20;nz=3;' <<<"$(first_params "$out")"
# Most square factorisation, cx <= cy; --cx or --cy alone gives the other.
for case in "12::cx=3;cy=4" "7::cx=1;cy=7" "8::cx=2;cy=4" "9::cx=3;cy=3" "6:--cy 1:cx=6;cy=1" "8:--cx 4:cx=4;cy=2"; do
  np=${case%%:*}
  rest=${case#*:}
  # shellcheck disable=SC2086
  out=$(sim "$FLUID" "$np" "$T" "${GRID[@]}" ${rest%%:*} --no-payload 2>&1) || true
  check "process grid np=$np ${rest%%:*}: ${rest#*:}" grep -q ";${rest#*:};" <<<"$(first_params "$out")"
done

# --------------------------------------------------------------- 6. bad input
# Each refused case must exit non-zero (MPI_Abort, status 2; 124 would be
# the timeout of a hang) with its message. The runs go 4 at a time: an
# MPI_Abort takes Open MPI about a second to tear down, mostly idle.
BAD_DIR=$WORK
BAD_WHAT=()
BAD_MSG=()
# refuse WHAT NP MESSAGE-FRAGMENT ARGS...: start the run in the background.
refuse() {
  local i=${#BAD_WHAT[@]} np=$2
  BAD_WHAT+=("$1")
  BAD_MSG+=("$3")
  shift 3
  # At most 4 at once: more makes Open MPI run out of resources under load.
  [ $((i % 4)) -eq 3 ] && wait
  (
    rc=0
    mpi "$np" "$TM" "$@" >"$BAD_DIR/$i.out" 2>&1 || rc=$?
    echo "$rc" >"$BAD_DIR/$i.rc"
  ) &
}
refuse "unknown algorithm" 2 "--algo: 'foo' is not one of mpi|burst|bruck|ring|pairwise" "${GRID[@]}" --algo foo
refuse "k = 0" 2 "--k: '0' is not in 1 \\.\\. " "${GRID[@]}" --algo ring --k 0
refuse "k not a number" 2 "--k: 'x' is not a whole number" "${GRID[@]}" --k x
refuse "k without ring" 2 "--k: applies to --algo ring only" "${GRID[@]}" --algo burst --k 2
refuse "cx not dividing" 4 "--cx: '3' does not divide the 4 processes" "${GRID[@]}" --cx 3
refuse "cx x cy != P" 4 "--cx 2 x --cy 3 = 6, not the 4 processes" "${GRID[@]}" --cx 2 --cy 3
refuse "cx > P" 2 "--cx: '3' is not in 1 \\.\\. 2$" "${GRID[@]}" --cx 3
refuse "grid too small for cy" 3 "does not fit grid 2 x 2 x 2" --nx 2 --ny 2 --nz 2
refuse "grid too small for cx (z)" 4 "cx <= min(nx, ny, nz) = 1" --nx 8 --ny 8 --nz 1 --cx 2
refuse "scale 0" 1 "--scale: '0' is not in (0, 1\\]" --scale 0
refuse "scale > 1" 1 "--scale: '1.5' is not in 0 \\.\\. 1$" --scale 1.5
refuse "nx 0" 1 "--nx: '0' is not in 1 \\.\\. " --nx 0
refuse "too many points" 1 "more than 2^53 points" --nx 1000000 --ny 1000000 --nz 10000
refuse "block over int counts" 1 "exceed MPI's int counts" --scale 1
refuse "verify without payload" 1 "--verify: needs the payload" "${GRID[@]}" --verify --no-payload
refuse "iterations 0" 1 "--iterations: '0' is not in 1 \\.\\. " "${GRID[@]}" --iterations 0
refuse "unknown option" 1 "--bogus: unknown" --bogus
refuse "missing value" 1 "--algo: needs an argument" "${GRID[@]}" --algo
wait
for i in "${!BAD_WHAT[@]}"; do
  rc=$(cat "$BAD_DIR/$i.rc" 2>/dev/null || echo missing)
  check "refuse ${BAD_WHAT[$i]}: exit status $rc" test "$rc" != missing -a "$rc" != 0 -a "$rc" != 124
  # Not anchored: under load Open MPI's own teardown messages may share the line.
  check "refuse ${BAD_WHAT[$i]}: message '${BAD_MSG[$i]}'" grep -q "transpose: .*${BAD_MSG[$i]}" "$BAD_DIR/$i.out"
done
out=$(mpi 2 "$TM" --help 2>&1)
check "--help: usage, once" test "$(grep -c '^Usage: transpose' <<<"$out")" = 1

finish
