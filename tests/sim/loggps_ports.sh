#!/usr/bin/env bash
# LogGPS with ports (docs/models.md, "LogGPS: ports, gap, Isend"), checked
# against values derived here from the model's rules, never from a run:
#
# 1. Degomme et al. 2013, Figure 1, for schedules where a node takes part in
#    one message at a time (tests/sim/schedules.c): ping-pong, binomial
#    bcast with blocking sends, recursive doubling with MPI_Sendrecv, at
#    P = 8 and 16, under ports=single, duplex and multi, below s, between s
#    and S, at S, at S + 1 and at 1 MiB, on three platforms whose links differ
#    in every way (SHARED 1.25 GB/s 50 us with a 500 us backbone; SPLITDUPLEX
#    1 Gb/s with zero latencies, node limiters and zero-latency loopbacks; an
#    hnm-platform cluster): the same times on all three (1e-9), equal to
#       T1 = o + k Os, T2 = L + W, T3 = o + k Or, W = k g (k < s) or
#       s g + (k - s) G, X = 6o + 3L + k (Os + Or) + W, n = log2 P:
#       ping-pong      2 (T1 + T2 + T3)   (k <= S)   2 X   (k > S)
#       bcast          n (T1 + T2 + T3)              n X
#       rdouble        n (o + T2 + T3)               n X       (+ n W single)
#    (MPI_Sendrecv posts with MPI_Isend, which costs o: a rendez-vous round
#    is X, not X + o; the two directions of a round share a single port:
#    + W per round.)
# 2. Schedules that post many messages at once (linear alltoall, pairwise
#    alltoall, a binomial bcast whose senders post all their children at
#    once) at P = 8, 16, below and above S: every rank's end equals the port
#    rule applied message by message (tests/sim/ports_oracle.awk) in the
#    order the simulation started them (the only thing taken from the run:
#    the order of transfers that start at one instant is SimGrid's actor
#    scheduling); their start instants are computed, not taken; closed forms
#    where the schedule has one (see below); single >= duplex >= multi.
# 3. gap: 16 eager MPI_Isend back to back with gap > o.
# 4. A hybrid model whose absolute bandwidth exceeds a route's narrowest
#    link: one warning naming that link (none for loggps).
# 5. Bad input: exit 2, one line naming the key, nothing simulated.
source "$(dirname "$0")/lib.sh"

L=5e-6 o=1.5e-6 g=0.5e-9 G=0.1e-9 s=1024 S=65536 Os=0.2e-9 Or=0.3e-9
MODEL="loggps:L=5us,o=1.5us,g=0.5ns,G=0.1ns,s=1024,S=64KiB,Os=0.2ns,Or=0.3ns"
ORACLE=(-v L=$L -v o=$o -v g=$g -v G=$G -v s=$s -v S=$S -v Os=$Os -v Or=$Or)
SIZES=(1000 4096 65536 65537 1048576)
TMP=$WORK

"$BUILD_DIR/bin/hnm-platform" cluster --cabinets 2 --nodes 8 --bw 10Gbps --lat 2us --limiter 1.5 \
  -o "$TMP/gen.xml" --hostfile "$TMP/gen.hosts" 2>/dev/null
PLATS=("$DATA/platforms/ports-a.xml:$DATA/platforms/ports-a.hosts"
       "$DATA/platforms/ports-b.xml:$DATA/platforms/ports-b.hosts" "$TMP/gen.xml:$TMP/gen.hosts")

W() { calc "$1 < $s ? $1 * $g : $s * $g + ($1 - $s) * $G"; }
# max over ranks of item I in a schedules output
maxof() { awk -v i="$1" '$1 == i && (m == "" || $5 > m) { m = $5 } END { print m }' "$2"; }

# --- 1. Figure 1 ------------------------------------------------------------
ITEMS=()
for k in "${SIZES[@]}"; do ITEMS+=("pingpong:$k" "bcast:$k" "rdouble:$k"); done
for np in 8 16; do
  n=$([ "$np" -eq 8 ] && echo 3 || echo 4)
  for ports in single duplex multi; do
    p=0
    for plat in "${PLATS[@]}"; do
      hnm "$MODEL,ports=$ports" "${plat%%:*}" "${plat##*:}" "$np" "$SIM_BIN/schedules" "${ITEMS[@]}" \
        >"$TMP/fig1-$p.out"
      p=$((p + 1))
    done
    i=0
    for k in "${SIZES[@]}"; do
      w=$(W "$k")
      T1=$(calc "$o + $k * $Os") T2=$(calc "$L + $w") T3=$(calc "$o + $k * $Or")
      X=$(calc "6 * $o + 3 * $L + $k * ($Os + $Or) + $w")
      extra=$([ "$ports" = single ] && calc "$n * $w" || echo 0)
      if [ "$k" -le "$S" ]; then
        want=("$(calc "2 * ($T1 + $T2 + $T3)")" "$(calc "$n * ($T1 + $T2 + $T3)")"
              "$(calc "$n * ($o + $T2 + $T3) + $extra")")
      else
        want=("$(calc "2 * $X")" "$(calc "$n * $X")" "$(calc "$n * $X + $extra")")
      fi
      for j in 0 1 2; do
        what="P=$np $ports k=$k ${ITEMS[$i]%%:*}"
        got=$(maxof "$i" "$TMP/fig1-0.out")
        check_close "$what = Figure 1" "$got" "${want[$j]}" 1e-9
        for p in 1 2; do
          check_close "$what: platform $p = platform 0" "$(maxof "$i" "$TMP/fig1-$p.out")" "$got" 1e-9
        done
        i=$((i + 1))
      done
    done
  done
done

# --- 2. messages posted at once ----------------------------------------------
A=("$DATA/platforms/ports-a.xml" "$DATA/platforms/ports-a.hosts")
ITEMS=()
for k in 1000 1048576; do ITEMS+=("a2a-linear:$k" "a2a-pair:$k" "bcast-isend:$k"); done
for np in 8 16; do
  n=$([ "$np" -eq 8 ] && echo 3 || echo 4)
  for ports in single duplex multi; do
    HNM_VERBOSE=2 hnm "$MODEL,ports=$ports" "${A[@]}" "$np" "$SIM_BIN/schedules" "${ITEMS[@]}" \
      >"$TMP/$ports.out" 2>"$TMP/$ports.trace"
    for i in "${!ITEMS[@]}"; do
      sched=${ITEMS[$i]%%:*} k=${ITEMS[$i]##*:}
      what="P=$np $ports $sched k=$k"
      awk -f "$(dirname "$0")/ports_oracle.awk" -v sched="$sched" -v P="$np" -v k="$k" -v mode="$ports" \
        -v base="$(calc "1e-3 + 0.05 * $i")" "${ORACLE[@]}" "$TMP/$ports.trace" >"$TMP/oracle"
      check "$what: start instants as the schedule says" grep -qx "starts-differing 0" "$TMP/oracle"
      for r in $(seq 0 $((np - 1))); do
        got=$(awk -v i="$i" -v r="$r" '$1 == i && $4 == r { print $5 }' "$TMP/$ports.out")
        check_close "$what: rank $r = port rule" "$got" "$(awk -v r="$r" '$1 == r { print $2 }' "$TMP/oracle")" 1e-9
      done
      eval "max_${ports}_$i=$(maxof "$i" "$TMP/$ports.out")"
      # Closed forms. Rendez-vous: every receive is posted first; MPI_Isend
      # number j goes at j o and its transfer lasts X - o when alone.
      w=$(W "$k") T2=$(calc "$L + $(W "$k")") T3=$(calc "$o + $k * $Or")
      X=$(calc "6 * $o + 3 * $L + $k * ($Os + $Or) + $w")
      got=$(maxof "$i" "$TMP/$ports.out")
      case "$sched:$ports:$((k > S))" in
        a2a-linear:multi:1) check_close "$what = (P-2) o + X" "$got" "$(calc "($np - 2) * $o + $X")" 1e-9 ;;
        # the send ports (W > o) pace everything: P-1 transfers W apart
        a2a-linear:duplex:1) check_close "$what = X + (P-2) W" "$got" "$(calc "$X + ($np - 2) * $w")" 1e-9 ;;
        a2a-pair:multi:1 | a2a-pair:duplex:1) check_close "$what = (P-1) X" "$got" "$(calc "($np - 1) * $X")" 1e-9 ;;
        a2a-pair:multi:0 | a2a-pair:duplex:0)
          check_close "$what = (P-1)(o + T2 + T3)" "$got" "$(calc "($np - 1) * ($o + $T2 + $T3)")" 1e-9 ;;
        # rank P-1 is every parent's first child: n hops of X
        bcast-isend:multi:1 | bcast-isend:duplex:1) check_close "$what = n X" "$got" "$(calc "$n * $X")" 1e-9 ;;
      esac
    done
  done
  for i in "${!ITEMS[@]}"; do
    eval "a=\$max_single_$i b=\$max_duplex_$i c=\$max_multi_$i"
    check "P=$np ${ITEMS[$i]}: single ($a) >= duplex ($b) >= multi ($c)" \
      awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { exit !(a >= b * (1 - 1e-12) && b >= c * (1 - 1e-12)) }'
  done
done

# --- 3. gap --------------------------------------------------------------------
# Rank 0 posts 16 eager MPI_Isend of k bytes at o, 2o, ...: with gap > o
# (and gap >= W, gap >= T3) the port lets message i leave at o + (i-1) gap,
# so rank 1's last MPI_Recv ends at o + 15 gap + L + W + T3; rank 0 at 16 o.
# Without gap the receiver is the bottleneck (T3 > o): o + T2 + 16 T3.
k=1000 gap=4e-6
w=$(W "$k") T2=$(calc "$L + $(W "$k")") T3=$(calc "$o + $k * $Or")
for ports in single duplex; do
  hnm "$MODEL,ports=$ports,gap=4us" "${A[@]}" 2 "$SIM_BIN/schedules" "burst:$k:16" >"$TMP/gap.out"
  check_close "gap $ports: receiver" "$(awk '$4 == 1 { print $5 }' "$TMP/gap.out")" \
    "$(calc "$o + 15 * $gap + $L + $w + $T3")" 1e-9
  check_close "gap $ports: sender" "$(awk '$4 == 0 { print $5 }' "$TMP/gap.out")" "$(calc "16 * $o")" 1e-9
done
hnm "$MODEL" "${A[@]}" 2 "$SIM_BIN/schedules" "burst:$k:16" >"$TMP/nogap.out"
check_close "no gap: receiver" "$(awk '$4 == 1 { print $5 }' "$TMP/nogap.out")" \
  "$(calc "$o + $T2 + 16 * $T3")" 1e-9

# --- 4. a hybrid model faster than the platform's link: one warning naming it
cat >"$TMP/fast.xml" <<'XML'
<?xml version="1.0"?>
<hnm-model name="fast" version="1">
  <protocol async="none" detached="none"/>
  <segments><segment upto="inf" lat-factor="1" bandwidth="10GBps"/></segments>
</hnm-model>
XML
hnm "$TMP/fast.xml" "$DATA/platforms/two.xml" "$DATA/platforms/two.hosts" 2 "$SIM_BIN/schedules" pingpong:1000 \
  pingpong:100000 >/dev/null 2>"$TMP/warn"
check "hybrid over the link: one warning (got: $(cat "$TMP/warn"))" [ "$(grep -c warning "$TMP/warn")" -eq 1 ]
check "hybrid over the link: names the narrowest link (two.xml: UP and limiter, both 1 Gb/s)" \
  grep -qE "link t_link_0_(UP|limiter) \(1.25e\+08 bytes/s\)" "$TMP/warn"
hnm "$MODEL" "$DATA/platforms/two.xml" "$DATA/platforms/two.hosts" 2 "$SIM_BIN/schedules" pingpong:100000 \
  >/dev/null 2>"$TMP/warn"
check "loggps: no warning (got: $(cat "$TMP/warn"))" bash -c "! grep -q warning '$TMP/warn'"
# Its own L = 5 us and 1/G = 10 GB/s against two.xml's 20 us and 125 MB/s:
# the one-line note that the model is not the platform's.
check "loggps: one line, the platform note (got: $(cat "$TMP/warn"))" \
  [ "$(wc -l <"$TMP/warn")" -eq 1 -a "$(grep -c "^hnm: note: model '.*' has its own L = 5e-06 s and 1/G = 1e+10 bytes/s" "$TMP/warn")" -eq 1 ]

# refused WHAT PATTERN MODEL: hnm-run refuses the model (refuse, tests/lib.sh).
refused() {
  refuse "$1" "$2" "$HNM_RUN" --model "$3" -platform "${A[0]}" -hostfile "${A[1]}" -np 2 "${SIMOPTS[@]}" \
    "$SIM_BIN/schedules" pingpong:1
}
refused "unknown port mode" "key 'ports'.*'dual'" "loggps:ports=dual"
refused "negative gap" "key 'gap'.*negative" "loggps:gap=-1us"
refused "gap without a port" "key 'gap'.*ports=single or duplex" "loggps:ports=multi,gap=1us"
refused "ports on a segment table" "key 'ports'.*loggps" "graphene:ports=single"
sed 's/ports="single"/ports="dual"/' "$SOURCE_DIR/model/models/loggps.xml" >"$TMP/bad-ports.xml"
refused "unknown port mode in a file" "bad-ports\.xml:[0-9]+: loggps attribute 'ports'" "$TMP/bad-ports.xml"
sed 's/gap="0"/gap="-2us"/' "$SOURCE_DIR/model/models/loggps.xml" >"$TMP/bad-gap.xml"
refused "negative gap in a file" "bad-gap\.xml:[0-9]+: loggps attribute 'gap'" "$TMP/bad-gap.xml"
finish
