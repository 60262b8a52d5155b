#!/bin/bash
# gcr.sh -- tests of the GCR allreduce skeleton (apps/gcr.c,
# docs/skeletons/gcr.md): --verify with Open MPI and under SMPI, exact
# simulated times under `fluid`, recursive-k's stage and message counts,
# refused input.
source "$(dirname "$0")/lib.sh"

GCR_MPI=$APPS_BIN/gcr-mpi
need mpirun "$GCR_MPI"
GCR=$APPS_BIN/gcr

# elements N RESTART P CALLS: elements --verify checks. A call has one
# allreduce of 2 doubles (Algorithm 1, line 6), then per iteration
# i = 1..N one of min(i, RESTART) doubles (line 13) and one of 2 (line 16).
elements() {
  awk -v n="$1" -v k="$2" -v p="$3" -v c="$4" \
    'BEGIN { e = 2; for (i = 1; i <= n; i++) e += (i < k ? i : k) + 2; print e * p * c }'
}

# verify_case WHAT EXPECTED-ELEMENTS COMMAND...: the command succeeds and
# prints verify,gcr,ok,EXPECTED-ELEMENTS.
verify_case() {
  local what=$1 want=$2 out rc=0
  shift 2
  out=$("$@" 2>&1) || rc=$?
  check "$what: exit status $rc" test "$rc" -eq 0
  # A failure shows what the program (or mpirun) said.
  [ "$rc" -eq 0 ] || head -20 <<<"$out" | sed 's/^/  | /'
  check "$what: verify line (want $want elements)" grep -qx "verify,gcr,ok,$want" <<<"$out"
}

# --- (1) --verify with the real MPI --------------------------------------
# Every element of every result is checked against its closed-form sum, and
# recursive-k's against MPI_Allreduce of the same input. N = 6 with
# restart 3 reaches the capped size (1, 2, 3, 3, 3, 3 doubles). Radix 3
# with 5..8 ranks folds several extra ranks into one (8 = 3 + 5 extras).
n=6
r=3
if part mpi; then
  for np in 1 2 3 4 5 6 7 8; do
    want=$(elements $n $r "$np" 2)
    for k in 2 3; do
      verify_case "mpi np=$np recursive k=$k" "$want" \
        mpi "$np" "$GCR_MPI" --verify --n $n --restart $r --iterations 2 --algo recursive --k "$k"
    done
    verify_case "mpi np=$np mpi" "$want" mpi "$np" "$GCR_MPI" --verify --n $n --restart $r --iterations 2 --algo mpi
  done
  for c in "4 4" "5 4" "8 4" "8 5" "7 7" "3 9"; do
    set -- $c
    verify_case "mpi np=$1 recursive k=$2" "$(elements $n $r "$1" 1)" \
      mpi "$1" "$GCR_MPI" --verify --n $n --restart $r --k "$2"
  done
  # A restart longer than N: sizes 1..N.
  verify_case "mpi np=5 restart 10" "$(elements 4 10 5 1)" mpi 5 "$GCR_MPI" --verify --n 4 --restart 10 --k 2
fi
part sim || finish

# --- (2) --verify under SMPI through the plugin ---------------------------
for np in 1 2 3 5 8 9; do
  want=$(elements $n $r "$np" 1)
  for k in 2 3; do
    verify_case "fluid np=$np recursive k=$k" "$want" sim "$FLUID" "$np" "$GCR" --verify --n $n --restart $r --k "$k"
  done
  verify_case "fluid np=$np mpi" "$want" sim "$FLUID" "$np" "$GCR" --verify --n $n --restart $r --algo mpi
done
for np in 3 6 16; do
  want=$(elements $n $r "$np" 1)
  for k in 2 4; do
    verify_case "graphene np=$np recursive k=$k" "$want" sim graphene "$np" "$GCR" --verify --n $n --restart $r --k "$k"
  done
  verify_case "graphene np=$np mpi" "$want" sim graphene "$np" "$GCR" --verify --n $n --restart $r --algo mpi
done

# --- (3) exact simulated times under fluid ---------------------------------
# flat32 under fluid: a route between two nodes has latency L = 20 us (UP
# 10 us + DOWN 10 us; limiters removed) and each node link carries
# B = 125e6 B/s per direction, shared max-min by the flows crossing it. An
# allreduce of c doubles sends messages of 8c bytes, w = 8c + 16 bytes on
# the wire; they are detached (< 64 KiB): the sender goes on at once and the
# transfer starts when the receive is posted. One message alone takes
# X = L + w/B.
#
# Common start (skel.h, sync=window): every rank starts each allreduce at
# the same simulated instant T, after the previous allreduce's messages
# have all arrived (each was received before its receiver entered
# skel_sync); the time is the slowest rank's end - T. So:
# A: P = 2, k = 2 (one stage, 2 messages in opposite directions, no shared
#    link): T_A = X.
# B: P = 3, k = 3 (one stage, 6 messages): every UP and every DOWN link
#    carries 2 of them, B/2 each: T_B = L + 2w/B.
# C: P = 3, k = 2 (m = 2, p = 1: fold, exchange, unfold; 4 messages). Extra
#    rank 2 folds into 2 - (3 - 2) = 1.
#    stage 0: 2 -> 1 from 0 to X (rank 2's send is detached: 0 s; rank 0
#             has nothing to fold: 0 s); max X (rank 1);
#    stage 1: 0 <-> 1 start when rank 1 posts them, at X, end 2X; rank 0
#             waited from 0: its stage 1 ends at 2X, max 2X;
#    stage 2: rank 1 sends the result to 2 at 2X and, its send being
#             detached, enters the next skel_sync at once: its first
#             message there (one double, 24 B on the wire, to rank 0 in the
#             binomial reduction, whose receive rank 0 posted at 2X) leaves
#             through the same UP link at the same instant. After the
#             latency both share it (B/2 each); the 24-B flow is done after
#             48/B, the result then has w - 24 bytes left at B: it reaches
#             rank 2 at 2X + L + (w + 24)/B = 3X + 24/B.
#    T_C = 3X + 24/B; stage maxima X; 2X; 3X + 24/B.
# D: P = 4, k = 2 (two stages of pairwise exchanges, 8 messages): every
#    node sends one and receives one message per stage: stage maxima X; X,
#    T_D = 2X.
# E: P = 8, k = 2: stage maxima X; X; X, T_E = 3X (24 messages).
# Before the common start these were measured from each rank's exit of
# SMPI's linear barrier, which releases rank 0 L + 16 (P - 1)/B before the
# others: that skew was part of every time (e.g. A was 2L + (16 + w)/B, C
# 3X + 16/B: the next barrier's 0-byte message shared rank 1's link).
# A call line (operation gcr) sums its allreduce times (the same rank is the
# slowest in each one) and their messages.
L=20e-6
B=125e6
closed_form() { # CASE C -> "time;stage times"
  local w x
  w=$(calc "8 * $2 + 16")
  x=$(calc "$L + $w / $B")
  case $1 in
  A) echo "$x;$x" ;;
  B) t=$(calc "$L + 2 * $w / $B") && echo "$t;$t" ;;
  C) t=$(calc "3 * $x + 24 / $B") && echo "$t;$x;$(calc "2 * $x");$t" ;;
  D) echo "$(calc "2 * $x");$x;$x" ;;
  E) echo "$(calc "3 * $x");$x;$x;$x" ;;
  esac
}
for c in "A 2 2 2 1" "B 3 3 6 1" "C 3 2 4 3" "D 4 2 8 2" "E 8 2 24 3"; do
  set -- $c
  case_=$1 np=$2 k=$3 per=$4 nst=$5
  out=$(sim "$FLUID" "$np" "$GCR" --n 4 --restart 3 --k "$k")
  sum=0
  nlines=0
  sizes=""
  while IFS= read -r line; do
    nlines=$((nlines + 1))
    cnt=$(sed 's/.*doubles=\([0-9]*\).*/\1/' <<<"$(csv_field "$line" 5)")
    sizes="$sizes$cnt "
    want=$(closed_form "$case_" "$cnt")
    t=${want%%;*}
    check_close "fluid $case_ allreduce $nlines (c=$cnt) time" "$(csv_field "$line" 8)" "$t" 1e-9
    st=$(csv_field "$line" 9)
    for s in $(seq 1 "$nst"); do
      check_close "fluid $case_ allreduce $nlines stage $s" "$(cut -d';' -f$s <<<"$st")" \
        "$(cut -d';' -f$((s + 1)) <<<"$want")" 1e-9
    done
    check "fluid $case_ allreduce $nlines messages" test "$(csv_field "$line" 7)" -eq "$per"
    check "fluid $case_ allreduce $nlines: params end with sync=window" grep -q ';sync=window$' \
      <<<"$(csv_field "$line" 5)"
    sum=$(calc "$sum + $t")
  done < <(grep '^gcr,allreduce,' <<<"$out")
  check "fluid $case_: 9 allreduces of 2 1 2 2 2 3 2 3 2 doubles (got $sizes)" test "$sizes" = "2 1 2 2 2 3 2 3 2 "
  call=$(grep '^gcr,gcr,' <<<"$out")
  check_close "fluid $case_ call time" "$(csv_field "$call" 8)" "$sum" 1e-9
  check "fluid $case_ call stages" test "$(csv_field "$call" 6)" -eq 9
  check "fluid $case_ call messages" test "$(csv_field "$call" 7)" -eq $((9 * per))
done

# --- (3b) the times do not depend on SMPI's barrier or reduce --------------
# The same runs under two barrier algorithms (SMPI's default linear one and
# recursive doubling) and two reduce algorithms report the same times and
# stage times (1e-9 relative), every line: under fluid (case C and E
# above) and under graphene, whose per-message overheads made the linear
# barrier's skew grow with P. --algo mpi (MPI_Allreduce = SMPI's default
# selector's reduce + bcast) is compared across barriers only: the reduce
# algorithm is part of what it measures.
# same_times WHAT OUT1 OUT2: same CSV lines (fields 1-7) and times (8, 9).
same_times() {
  local what=$1 n1 n2 i l1 l2 f
  n1=$(grep -c '^gcr,' <<<"$2")
  n2=$(grep -c '^gcr,' <<<"$3")
  check "$what: same number of lines ($n1, $n2)" test "$n1" -eq "$n2" -a "$n1" -gt 0
  for i in $(seq 1 "$n1"); do
    l1=$(grep '^gcr,' <<<"$2" | sed -n "${i}p")
    l2=$(grep '^gcr,' <<<"$3" | sed -n "${i}p")
    check "$what line $i: same fields 1-7" test "$(cut -d, -f1-7 <<<"$l1")" = "$(cut -d, -f1-7 <<<"$l2")"
    check_close "$what line $i: time" "$(csv_field "$l1" 8)" "$(csv_field "$l2" 8)" 1e-9
    f=$(csv_field "$l1" 9 | tr ';' ' ')
    local s=1
    for v in $f; do
      check_close "$what line $i: stage $s" "$(cut -d';' -f$s <<<"$(csv_field "$l2" 9)")" "$v" 1e-9
      s=$((s + 1))
    done
  done
}
LIN=(--cfg=smpi/barrier:ompi_basic_linear --cfg=smpi/reduce:ompi_basic_linear)
RD=(--cfg=smpi/barrier:ompi_recursivedoubling --cfg=smpi/reduce:ompi_binomial)
for c in "$FLUID 3 2" "$FLUID 8 2" "graphene 8 2" "graphene 13 3"; do
  set -- $c
  a=$(sim "$1" "$2" "${LIN[@]}" "$GCR" --n 2 --restart 3 --k "$3")
  b=$(sim "$1" "$2" "${RD[@]}" "$GCR" --n 2 --restart 3 --k "$3")
  same_times "$1 P=$2 k=$3 linear vs recursive-doubling barrier and binomial reduce" "$a" "$b"
done
a=$(sim graphene 8 --cfg=smpi/barrier:ompi_basic_linear "$GCR" --n 2 --algo mpi)
b=$(sim graphene 8 --cfg=smpi/barrier:ompi_recursivedoubling "$GCR" --n 2 --algo mpi)
same_times "graphene P=8 mpi, linear vs recursive-doubling barrier" "$a" "$b"

# --- (4) recursive-k invariants -------------------------------------------
# m = k^p, the largest power of k <= P: p stages if P = m, else p + 2; the
# messages of one allreduce, over all ranks: m (k - 1) p in the exchanges
# (each of the m ranks sends to its k - 1 partners in each of the p stages)
# plus P - m folded in and P - m sent back. --report call prints the call
# line only: 2N + 1 "stages" (its allreduces) and (2N + 1) x the messages.
shape() { # P K -> "stages messages"
  awk -v P="$1" -v k="$2" 'BEGIN { m = 1; p = 0; while (m * k <= P) { m *= k; p++ }
    print (P == m ? p : p + 2), m * (k - 1) * p + 2 * (P - m) }'
}
for c in "1 2" "2 2" "3 2" "4 2" "5 2" "7 2" "8 2" "9 2" "16 2" "2 3" "3 3" "4 3" "8 3" "9 3" "10 3" "26 3" "27 3" \
  "4 4" "15 4" "16 4" "17 4" "5 5" "24 5" "25 5" "6 7" "32 2" "32 31"; do
  set -- $c
  read -r st msg <<<"$(shape "$1" "$2")"
  out=$(sim "$FLUID" "$1" "$GCR" --n 2 --restart 3 --k "$2" --no-payload)
  bad=0
  while IFS= read -r line; do
    ns=$(csv_field "$line" 9 | awk -F';' '{ print ($0 == "" ? 0 : NF) }')
    [ "$(csv_field "$line" 6)" -eq "$st" ] && [ "$(csv_field "$line" 7)" -eq "$msg" ] && [ "$ns" -eq "$st" ] || bad=1
  done < <(grep '^gcr,allreduce,' <<<"$out")
  check "P=$1 k=$2: 5 allreduces" test "$(grep -c '^gcr,allreduce,' <<<"$out")" -eq 5
  check "P=$1 k=$2: each $st stages, $msg messages" test "$bad" -eq 0
  call=$(grep '^gcr,gcr,' <<<"$out")
  check "P=$1 k=$2: call stages 5, messages $((5 * msg))" \
    test "$(csv_field "$call" 6),$(csv_field "$call" 7)" = "5,$((5 * msg))"
done
# The paper's default call: N = 25, restart 3 -> 51 allreduces.
out=$(sim "$FLUID" 8 "$GCR" --report call --iterations 2)
check "default call: 2 call lines, no allreduce line" \
  test "$(grep -c '^gcr,gcr,' <<<"$out"),$(grep -c '^gcr,allreduce,' <<<"$out")" = "2,0"
check "default call: 51 allreduces of 8 x (2 - 1) x 3 = 24 messages" \
  test "$(csv_field "$(grep -m1 '^gcr,gcr,' <<<"$out")" 6),$(csv_field "$(grep -m1 '^gcr,gcr,' <<<"$out")" 7)" = "51,1224"
# MPI_Allreduce is opaque: 0 stages, 0 messages; --no-payload with a real MPI.
out=$(mpi 3 "$GCR_MPI" --algo mpi --n 1 --no-payload)
check "mpi algo: 3 allreduce lines with 0 stages and 0 messages" \
  test "$(grep -c '^gcr,allreduce,mpi,3,call=0;allreduce=[0-9];line=[0-9]*;doubles=[0-9];sync=barrier,0,0,' <<<"$out")" -eq 3

# --- (5) refused input -------------------------------------------------------
# refused WHAT MESSAGE-PATTERN COMMAND...: non-zero exit, message on stderr.
refused() {
  local what=$1 pat=$2 out rc=0
  shift 2
  out=$("$@" 2>&1 >/dev/null) || rc=$?
  check "refused $what: non-zero exit (got $rc), no timeout" test "$rc" -ne 0 -a "$rc" -ne 124
  check "refused $what: message /$pat/" grep -q -- "$pat" <<<"$out"
}
refused "--k 1" "gcr: --k: '1' is not in 2 \\.\\. 2147483647$" mpi 2 "$GCR_MPI" --k 1
refused "--k 0" "gcr: --k: '0' is not in 2 \\.\\. " mpi 2 "$GCR_MPI" --k 0
refused "--restart 0" "gcr: --restart: '0' is not in 1 \\.\\. " mpi 2 "$GCR_MPI" --restart 0
refused "--n -1" "gcr: --n: '-1' is not in 0 \\.\\. 1000000$" mpi 2 "$GCR_MPI" --n -1
refused "--n abc" "gcr: --n: 'abc' is not a whole number$" mpi 2 "$GCR_MPI" --n abc
refused "--iterations 0" "gcr: --iterations: '0' is not in 1 \\.\\. " mpi 2 "$GCR_MPI" --iterations 0
refused "--algo ring" "gcr: --algo: 'ring' is not one of mpi|recursive$" mpi 2 "$GCR_MPI" --algo ring
refused "--report some" "gcr: --report: 'some' is not one of all|call$" mpi 2 "$GCR_MPI" --report some
refused "--frobnicate" "gcr: --frobnicate: unknown" mpi 2 "$GCR_MPI" --frobnicate
refused "--k without value" "gcr: --k: needs an argument$" mpi 2 "$GCR_MPI" --k
refused "--verify --no-payload" "gcr: --verify: needs real buffers" mpi 3 "$GCR_MPI" --verify --no-payload
# Under SMPI, skel_fail ends the simulation with exit(2) (SimGrid 3.32's
# MPI_Abort would exit 0); smpirun then prints its command line on stdout,
# so "no output" means no CSV line.
sim_refused() {
  local what=$1 pat=$2 out err rc=0
  shift 2
  err=$WORK/err
  out=$("$@" 2>"$err") || rc=$?
  check "refused $what: no timeout (got $rc)" test "$rc" -ne 124
  check "refused $what: non-zero exit (got $rc)" test "$rc" -ne 0
  check "refused $what: message /$pat/" grep -q -- "$pat" "$err"
  check "refused $what: no CSV output" bash -c '! grep -q "^program,\|^allreduce,\|^gcr," <<<"$1"' _ "$out"
  rm -f "$err"
}
sim_refused "smpi --k 1" "gcr: --k: '1' is not in 2 \\.\\. 2147483647$" sim "$FLUID" 3 "$GCR" --k 1
sim_refused "smpi --algo ring" "gcr: --algo: 'ring' is not one of mpi|recursive$" sim "$FLUID" 3 "$GCR" --algo ring
sim_refused "smpi --verify --no-payload" "gcr: --verify: needs real buffers" sim "$FLUID" 2 "$GCR" --verify --no-payload

# --help: usage on stdout, exit 0, once.
out=$(mpi 2 "$GCR_MPI" --help)
check "--help prints the usage once" test "$(grep -c '^Usage: gcr' <<<"$out")" -eq 1

finish
