#!/usr/bin/env bash
# halo.sh -- tests of the wide halo exchange skeleton (apps/halo.c, Zheng & Marguinaud 2018
# Section 3.2, Fig. 4b): every halo point checked with the real MPI and under
# SMPI for 1..8 processes, non-divisible grids, 1-column / 1-row blocks and
# widths beyond the neighbours' blocks and beyond the whole domain; message
# counts against their formula; exact simulated times under `fluid` against
# hand-derived closed forms; refusals of bad input.
source "$(dirname "$0")/lib.sh"

MPI_HALO=$APPS_BIN/halo-mpi
need mpirun "$MPI_HALO"
SIM_HALO=$APPS_BIN/halo

# param KEY LINE: the value of KEY in the params field of a CSV line.
param() { csv_field "$2" 5 | tr ';' '\n' | sed -n "s/^$1=//p"; }

# halo_points NX NY CX CY W NZ: halo doubles over all ranks for one exchange.
# A block of lx x ly has (lx + 2w)(ly + 2w) - lx ly = 2w ly + 2w lx + 4w^2
# halo points; summed over the cx x cy blocks: 2w cx ny + 2w cy nx + 4w^2 cx cy.
halo_points() { calc "$6 * (2 * $5 * $3 * $2 + 2 * $5 * $4 * $1 + 4 * $5 * $5 * $3 * $4)"; }

# side_msgs N P W: messages one rank posts for one side of one sweep when P
# divides N: the side spans D = ceil(W / (N/P)) blocks at distances 1..D, and
# the distances that are multiples of P are the rank itself (a local copy).
side_msgs() { awk -v n="$1" -v p="$2" -v w="$3" 'BEGIN { b = n / p; d = int((w + b - 1) / b);
                                                     print d - int(d / p) }'; }
# exchange_msgs NX NY CX CY W: messages of all ranks in one exchange (divisible grids).
exchange_msgs() {
  local x y
  x=$(side_msgs "$1" "$3" "$5")
  y=$(side_msgs "$2" "$4" "$5")
  echo $(($3 * $4 * 2 * (x + y)))
}

# verified LABEL OUTPUT: the run printed one CSV line per iteration and a
# verify line whose count is every halo double of every iteration.
verified() {
  local label=$1 out=$2 line iters nx ny nz cx cy w got
  line=$(grep -m1 '^halo,' <<<"$out" || true)
  if [ -z "$line" ]; then
    check "$label: CSV line (got: $(head -c 300 <<<"$out"))" false
    return
  fi
  iters=$(grep -c '^halo,' <<<"$out" || true)
  nx=$(param nx "$line") ny=$(param ny "$line") nz=$(param nz "$line")
  cx=$(param cx "$line") cy=$(param cy "$line") w=$(param width "$line")
  got=$(sed -n 's/^verify,halo,ok,//p' <<<"$out")
  check "$label: verify count '$got' == $iters x halo points" \
    [ "$got" = "$(calc "$iters * $(halo_points "$nx" "$ny" "$cx" "$cy" "$w" "$nz")")" ]
}

# first_error OUTPUT: the program's own message if any, else the end of OUTPUT.
first_error() { grep -m1 '^halo:' <<<"$1" || tail -c 300 <<<"$1"; }

# verify_mpi LABEL NP ARGS...: --verify with the real MPI.
verify_mpi() {
  local label=$1 np=$2 out
  shift 2
  if out=$(mpi "$np" "$MPI_HALO" --verify "$@" 2>&1); then
    verified "mpi $label (np $np)" "$out"
  else
    check "mpi $label (np $np): exit 0 (got: $(first_error "$out"))" false
  fi
}

# verify_sim MODEL LABEL NP ARGS...: --verify under SMPI through hnm-run.
verify_sim() {
  local model=$1 label=$2 np=$3 out
  shift 3
  if out=$(sim "$model" "$np" "$SIM_HALO" --verify "$@" 2>&1); then
    verified "sim $model $label (np $np)" "$out"
  else
    check "sim $model $label (np $np): exit 0 (got: $(first_error "$out"))" false
  fi
}

# --- 1. Real MPI: every halo point, 1..8 processes ------------------------
# 11 x 7: no cx or cy > 1 of the default grids for 2..8 divides nx or ny
# (blocks of unequal sizes); width
# 3 is the paper's thin halo, 10 exceeds the blocks of neighbours (and for a
# single process wraps around the 7 rows), so halos come from neighbours of
# neighbours.
if part mpi; then
  for np in 1 2 3 4 5 6 7 8; do
    verify_mpi "11x7 w3" "$np" --nx 11 --ny 7 --nz 2 --width 3
    verify_mpi "11x7 w10" "$np" --nx 11 --ny 7 --nz 2 --width 10
  done
  # One-column and one-row blocks; widths larger than the whole domain (the
  # halo wraps around it several times); two iterations.
  verify_mpi "1-column blocks w4" 3 --cx 3 --nx 3 --ny 2 --nz 3 --width 4
  verify_mpi "1-column blocks w9" 5 --cx 5 --nx 5 --ny 3 --nz 1 --width 9 --iterations 2
  verify_mpi "1-column blocks w3" 7 --cx 7 --nx 7 --ny 2 --nz 1 --width 3
  verify_mpi "1-row blocks w3" 2 --cy 2 --nx 2 --ny 2 --nz 2 --width 3
  verify_mpi "1-row blocks w6" 5 --cy 5 --nx 3 --ny 5 --nz 1 --width 6
  verify_mpi "w 13 > domain 5x3" 4 --nx 5 --ny 3 --nz 2 --width 13 --iterations 2
  verify_mpi "cx 1 (x halo local)" 3 --cx 1 --nx 4 --ny 9 --nz 2 --width 5
  # The paper's wide halos, 20 and 30 points, on blocks narrower than the width.
  verify_mpi "paper w20" 6 --nx 40 --ny 20 --nz 1 --width 20
  verify_mpi "paper w30" 8 --nx 50 --ny 26 --nz 1 --width 30

  # Packing by hand inside the timed stages, and MPI_Type_vector types straight
  # from the field (the x sweep's columns are strided, the y sweep's rows
  # contiguous): the same halo either way.
  for pk in manual datatype; do
    verify_mpi "--pack $pk 11x7 w3" 4 --nx 11 --ny 7 --nz 2 --width 3 --pack "$pk"
    verify_mpi "--pack $pk w13 > domain" 4 --nx 5 --ny 3 --nz 2 --width 13 --pack "$pk"
  done
fi
part sim || finish

# --- 2. SMPI through hnm-run (privatization off): the same checks ---------
for np in 1 3 4 6 8; do
  verify_sim "$FLUID" "11x7 w10" "$np" --nx 11 --ny 7 --nz 2 --width 10
done
verify_sim "$FLUID" "1-column blocks w9" 5 --cx 5 --nx 5 --ny 3 --nz 1 --width 9 --iterations 2
verify_sim "$FLUID" "w 13 > domain 5x3" 4 --nx 5 --ny 3 --nz 2 --width 13
verify_sim graphene "11x7 w3" 5 --nx 11 --ny 7 --nz 2 --width 3
verify_sim graphene "11x7 w10" 8 --nx 11 --ny 7 --nz 2 --width 10 --iterations 2
verify_sim graphene "paper w20" 6 --nx 40 --ny 20 --nz 1 --width 20

# --- 3. Invariants: stages and messages -----------------------------------
# msgs_case RUNNER-LABEL OUTPUT NX NY CX CY W: every CSV line has 2 stages,
# 2 stage times and exchange_msgs messages.
msgs_case() {
  local label=$1 out=$2 want line
  want=$(exchange_msgs "$3" "$4" "$5" "$6" "$7")
  line=$(grep -m1 '^halo,' <<<"$out" || true)
  check "$label: 2 stages (line: $line)" [ "$(csv_field "$line" 6)" = 2 ]
  check "$label: 2 stage times" [ "$(csv_field "$line" 9 | tr ';' '\n' | wc -l)" = 2 ]
  check "$label: $want messages (got $(csv_field "$line" 7))" [ "$(csv_field "$line" 7)" = "$want" ]
}
# 1-column blocks, w 3: distances 1..3 on both sides, 6 messages per rank.
out=$(mpi 5 "$MPI_HALO" --cx 5 --nx 5 --ny 3 --nz 1 --width 3 2>&1 || true)
msgs_case "np 5 1-column w3 (30)" "$out" 5 3 5 1 3
check "np 5 1-column w3: formula gives 30" [ "$(exchange_msgs 5 3 5 1 3)" = 30 ]
# w 7 > 5 columns: distances 1..7 per side, distance 5 is the rank itself.
out=$(mpi 5 "$MPI_HALO" --cx 5 --nx 5 --ny 3 --nz 1 --width 7 2>&1 || true)
msgs_case "np 5 1-column w7 (60)" "$out" 5 3 5 1 7
check "np 5 1-column w7: formula gives 60" [ "$(exchange_msgs 5 3 5 1 7)" = 60 ]
# Default decomposition of 6 = 3 x 2 (cx >= cy), 2-point blocks, w 3.
out=$(mpi 6 "$MPI_HALO" --nx 6 --ny 4 --nz 1 --width 3 2>&1 || true)
msgs_case "np 6 3x2 w3 (36)" "$out" 6 4 3 2 3
check "np 6: most square grid 3 x 2" [ "$(param cx "$(grep -m1 '^halo,' <<<"$out")")x$(param cy "$(grep -m1 '^halo,' <<<"$out")")" = 3x2 ]
# cx = 1: the x halo is copied locally, no message in stage 1.
out=$(sim "$FLUID" 4 "$SIM_HALO" --cx 1 --nx 4 --ny 8 --nz 1 --width 3 2>&1 || true)
msgs_case "sim np 4 cx=1 (16)" "$out" 4 8 1 4 3
check "sim np 4 cx=1: stage 1 takes no time" [ "$(csv_field "$(grep -m1 '^halo,' <<<"$out")" 9 | cut -d';' -f1)" = 0 ]
# The paper's defaults (Table 3 grid x 0.0001 in points, i.e. x 0.01 per
# dimension; nz 256, width 3), no payload:
# 16 ranks as 4 x 4 blocks of 72 x 36 points, one message per side.
out=$(sim "$FLUID" 16 "$SIM_HALO" --scale 0.0001 --no-payload 2>&1 || true)
line=$(grep -m1 '^halo,' <<<"$out" || true)
check "defaults: Table 3 x 0.0001, nz 256, width 3 (got $line)" \
  [ "$(param nx "$line");$(param ny "$line");$(param nz "$line");$(param width "$line");$(param payload "$line")" \
    = "288;144;256;3;0" ]
msgs_case "sim np 16 defaults no-payload (64)" "$out" 288 144 4 4 3
out=$(mpi 4 "$MPI_HALO" --scale 0.0001 --no-payload --iterations 2 2>&1 || true)
check "mpi no-payload: two CSV lines" [ "$(grep -c '^halo,' <<<"$out" || true)" = 2 ]
msgs_case "mpi np 4 defaults no-payload (16)" "$out" 288 144 2 2 3

# --- 4. Exact simulated times under fluid ---------------------------------
# flat32 under fluid: route between two nodes L = 10 us + 0 + 0 + 10 us =
# 20 us; B = 125e6 B/s per direction per node; a message of k bytes is a
# flow of k + 16 bytes; every message here is < 64 KiB, hence detached: the
# sender's request completes at once, the flow starts when the receive is
# posted (or at the send if the receive was first), max-min sharing on the
# node's UP (outgoing) and DOWN (incoming) links, nothing else.
#
# Common start (skel.h, sync=window): every rank starts the exchange at the
# same simulated instant, with no message of the previous iteration or of
# the report in flight; the time is the slowest rank's end minus that
# instant. (Before, each rank timed from its own exit of SMPI's linear
# barrier, which lets rank 0 out d = L + 16 (P - 1) / B before the others:
# d was part of every case below.)
L=20e-6
B=125e6

# Case A: 4 ranks as 2 x 2, nx 8, ny 6, nz 2, w 2: blocks of 4 x 3.
# Stage 1: each rank sends its 2 boundary columns x 3 rows x 2 levels =
# 96 B to its x partner twice (it is both the west and the east neighbour).
# All 8 flows start at the common start; 2 flows of 112 B share each UP and
# DOWN link: every rank's stage 1 is L + 224/B.
# Stage 2 starts on every rank at that same instant (no time between the
# stages under SMPI without computation): 2 rows x (4 + 2 w) columns x 2
# levels = 256 B twice to the y partner, 2 flows of 272 B per link:
# L + 544/B for every rank. Total: 2L + (224 + 544)/B, both iterations
# alike.
out=$(sim "$FLUID" 4 "$SIM_HALO" --nx 8 --ny 6 --nz 2 --width 2 --iterations 2 2>&1 || true)
s1=$(calc "$L + 224 / $B")
s2=$(calc "$L + 544 / $B")
n=0
while IFS= read -r line; do
  n=$((n + 1))
  check_close "case A iteration $n time" "$(csv_field "$line" 8)" "$(calc "$s1 + $s2")" 1e-9
  check_close "case A iteration $n stage 1" "$(csv_field "$line" 9 | cut -d';' -f1)" "$s1" 1e-9
  check_close "case A iteration $n stage 2" "$(csv_field "$line" 9 | cut -d';' -f2)" "$s2" 1e-9
done < <(grep '^halo,' <<<"$out" || true)
check "case A: two iterations reported (got $n)" [ "$n" = 2 ]

# Case B: a wide halo with unequal blocks: 2 ranks as 2 x 1, nx 5 (columns
# 0-2 and 3-4), ny 1, nz 1, w 4. Rank 0's west halo -4..-1 is columns 3, 4
# of rank 1 (one message of 2 doubles) and columns 1, 2 of itself (a local
# copy, the wrap-around); east halo 3..6 likewise: rank 0 receives 2 x 16 B.
# Rank 1's west halo -1..2 of global columns 4 (itself) and 0-2 (rank 0, 3
# doubles), east halo 5..8 = columns 0-2 (rank 0) and 3 (itself): rank 1
# receives 2 x 24 B. Stage 2 (cy = 1) is all local copies: no time.
# All flows start at the common start; rank 0's receives: 2 flows of 32 B
# sharing its DOWN link (and rank 1's UP link, nothing else), done at
# L + 64/B; its sends are detached. Rank 1's receives: 2 flows of 40 B,
# done at L + 80/B: the maximum. (With the barrier, rank 0 was the slowest:
# d + L + 64/B.)
out=$(sim "$FLUID" 2 "$SIM_HALO" --cx 2 --nx 5 --ny 1 --nz 1 --width 4 2>&1 || true)
line=$(grep -m1 '^halo,' <<<"$out" || true)
check_close "case B time" "$(csv_field "$line" 8)" "$(calc "$L + 80 / $B")" 1e-9
check "case B: params end with sync=window" grep -q ';sync=window$' <<<"$(csv_field "$line" 5)"
check "case B: 4 messages, stage 2 free" [ "$(csv_field "$line" 7);$(csv_field "$line" 9 | cut -d';' -f2)" = "4;0" ]

# Case C: the same along y, to time the extended rows: 2 ranks as 1 x 2,
# nx 1, ny 5, w 4. Stage 1 (cx = 1) is local. A y message is its rows x
# (lx + 2w = 9) columns: rank 0 receives 2 x (2 x 9 x 8 = 144 B), rank 1
# 2 x (3 x 9 x 8 = 216 B). Stage 2: rank 0 takes L + 2 x 160/B, rank 1
# L + 2 x 232/B, the maximum (with the barrier: rank 0, d + L + 320/B).
out=$(sim "$FLUID" 2 "$SIM_HALO" --cy 2 --nx 1 --ny 5 --nz 1 --width 4 2>&1 || true)
line=$(grep -m1 '^halo,' <<<"$out" || true)
check_close "case C time" "$(csv_field "$line" 8)" "$(calc "$L + 464 / $B")" 1e-9
check_close "case C stage 2" "$(csv_field "$line" 9 | cut -d';' -f2)" "$(calc "$L + 464 / $B")" 1e-9

# Case D: the times do not depend on SMPI's barrier: case A under
# graphene (per-message overheads: a linear barrier's skew grows with P)
# with 16 ranks as 4 x 4, under the linear and the recursive-doubling
# barrier: the same times and stage times (1e-9).
a=$(sim graphene 16 --cfg=smpi/barrier:ompi_basic_linear "$SIM_HALO" --nx 16 --ny 12 --nz 2 --width 2 \
  --iterations 2 2>&1 || true)
b=$(sim graphene 16 --cfg=smpi/barrier:ompi_recursivedoubling "$SIM_HALO" --nx 16 --ny 12 --nz 2 --width 2 \
  --iterations 2 2>&1 || true)
check "case D: two lines each" [ "$(grep -c '^halo,' <<<"$a");$(grep -c '^halo,' <<<"$b")" = "2;2" ]
for i in 1 2; do
  la=$(grep '^halo,' <<<"$a" | sed -n "${i}p")
  lb=$(grep '^halo,' <<<"$b" | sed -n "${i}p")
  check_close "case D iteration $i time, linear vs recursive-doubling barrier" "$(csv_field "$la" 8)" \
    "$(csv_field "$lb" 8)" 1e-9
  for s in 1 2; do
    check_close "case D iteration $i stage $s" "$(csv_field "$la" 9 | cut -d';' -f$s)" \
      "$(csv_field "$lb" 9 | cut -d';' -f$s)" 1e-9
  done
done

# --- 5. Bad input: refused with a message, non-zero exit, no hang ---------
# refused LABEL PATTERN RUNNER...: exit status non-zero, stderr matches.
refused() {
  local label=$1 pattern=$2 out status
  shift 2
  out=$("$@" 2>&1)
  status=$?
  check "$label: non-zero exit (got $status)" [ "$status" -ne 0 ]
  check "$label: message '$pattern' (got: $(head -c 200 <<<"$out"))" grep -q -- "$pattern" <<<"$out"
}
refused "width 0" "--width: '0' is not in 1 \\.\\. " mpi 4 "$MPI_HALO" --width 0
refused "datatype packing without payload" "--pack: datatype packing needs real buffers" mpi 4 "$MPI_HALO" \
  --pack datatype --no-payload
refused "unknown packing" "--pack" mpi 4 "$MPI_HALO" --pack compiled
refused "negative width" "--width: '-3' is not in 1 \\.\\. " mpi 4 "$MPI_HALO" --width -3
refused "width not a number" "--width: '3x' is not a whole number" mpi 4 "$MPI_HALO" --width 3x
refused "width without value" "--width: needs an argument" mpi 4 "$MPI_HALO" --width
refused "cx not dividing P" "--cx: '3' does not divide the 4 processes" mpi 4 "$MPI_HALO" --cx 3
refused "cy not dividing P" "--cy: '3' does not divide the 4 processes" mpi 4 "$MPI_HALO" --cy 3
refused "cx x cy != P" "but there are 4 processes" mpi 4 "$MPI_HALO" --cx 2 --cy 3
refused "fewer columns than cx" "nx = 3 < cx = 4" mpi 4 "$MPI_HALO" --cx 4 --nx 3
refused "fewer rows than cy" "ny = 1 < cy = 2" mpi 4 "$MPI_HALO" --ny 1 --nx 8
refused "verify without payload" "--verify: needs real buffers" mpi 2 "$MPI_HALO" --verify --no-payload
refused "unknown option" "--widht: unknown" mpi 2 "$MPI_HALO" --widht 3
refused "scale 0" "--scale: '0' is not in (0, 1\\]" mpi 2 "$MPI_HALO" --scale 0
refused "scale above 1" "--scale: '2' is not in 0 \\.\\. 1$" mpi 2 "$MPI_HALO" --scale 2
refused "nz 0" "--nz: '0' is not in 1 \\.\\. " mpi 2 "$MPI_HALO" --nz 0
refused "iterations 0" "--iterations: '0' is not in 1 \\.\\. " mpi 2 "$MPI_HALO" --iterations 0
refused "width wrapping too often" "spans up to" mpi 2 "$MPI_HALO" --nx 4 --ny 4 --nz 1 --width 100000
refused "local field too large" "local field of .* doubles is larger than this machine's memory" \
  mpi 1 "$MPI_HALO" --nx 2000000000 --ny 2000000000 --nz 1
refused "message above MPI's int count" "exceeds MPI's int count" \
  mpi 2 "$MPI_HALO" --nx 2 --ny 1 --nz 3000000000 --no-payload
refused "sim width 0" "--width: '0' is not in 1 \\.\\. " sim "$FLUID" 4 "$SIM_HALO" --width 0
refused "sim cx not dividing P" "--cx: '3' does not divide" sim "$FLUID" 4 "$SIM_HALO" --cx 3

# --help: usage on stdout from rank 0 only, exit 0.
out=$(mpi 3 "$MPI_HALO" --help 2>/dev/null)
check "--help: one usage line from rank 0" [ "$(grep -c '^Usage: halo' <<<"$out")" = 1 ]
check "--help: documents --width" grep -q -- '--width N  *halo width' <<<"$out"
# Under SMPI SimGrid takes --help for itself; -h is the program's.
out=$(sim "$FLUID" 2 "$SIM_HALO" -h 2>/dev/null)
check "sim -h: one usage line" [ "$(grep -c '^Usage: halo' <<<"$out")" = 1 ]

finish
