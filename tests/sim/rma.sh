#!/usr/bin/env bash
# rma.sh -- one-sided communication (MPI RMA) costs of a model's <rma>
# element (plugin/hnm_rma.cpp, docs/models.md "One-sided communication"):
#   1. closed forms of a fence epoch with one put, a PSCW epoch, a
#      lock/put/unlock and a lock/get/unlock (tests/sim/rma_epochs.c), 1e-9
#      relative, under both of SMPI's privatization modes (the hook must
#      work whichever way the program is loaded);
#   2. the same lock/put/unlock under a model without <rma>: SMPI's own
#      charging, unchanged (send overhead of MPI_Isend at the origin, the
#      receive overhead charged to the origin by the unlock's flush);
#   3. bad <rma> values and combinations refused: exit 2, one line naming
#      the file, line and field;
#   4. --fast with a model that has <rma>: refused.
source "$(dirname "$0")/lib.sh"

PLAT=(-platform "$DATA/platforms/flat32.xml" -hostfile "$DATA/platforms/flat32.hosts")
RMA=$DATA/models/rma-costs.xml
NONE=$DATA/models/rma-none.xml
TMP=$WORK

# epoch MODEL PRIVATIZATION MODE K: the program's "rank R end T" lines.
epoch() {
  "$HNM_RUN" --model "$1" "${PLAT[@]}" -np 2 "${SIMOPTS[@]}" --cfg=smpi/privatization:"$2" \
    "$SIM_BIN/rma_epochs" "$3" "$4" 2>&1 || true
}
end_of() { awk -v r="$2" '$1 == "rank" && $2 == r && $3 == "end" { print $4 }' <<<"$1"; }

# The derivation, by hand from SMPI 3.32 (src/smpi/mpi/smpi_win.cpp,
# smpi_request.cpp) and the model (docs/models.md gives it step by step).
# flat32: two nodes are L = 20 us apart (two 10 us links), B = 125e6 B/s per
# direction, no limiter (limiter="off"), no cross-traffic, max-min sharing.
# A message of k bytes is k + 16 on the wire: alone, d(k) = L + (k + 16)/B;
# m = d(0), a 0-byte synchronisation message. Every RMA message is detached
# (SMPI forces it), and 0-byte messages are too (detached="65535"); with
# async="none" a detached message flows once its receive is posted. Inside
# RMA calls nothing pays a point-to-point overhead; the origin pays
# P = put-o + k put-per-byte (G = get-o + k get-per-byte for a get) before
# its data flows; each synchronisation call costs its constant when SMPI's
# part returns: F (fence), C (post/start/complete/wait), K (lock/unlock).
#
# lock: lock (nothing to wait for) + K; put: P, the data flows d(k); unlock:
#   waits for the data (flush), + K. Rank 0: 2K + P + d(k). lockget: the
#   same with G.
# pscw: rank 0's start receives rank 1's post notice (sent at 0): m, + C;
#   put: P, then the data flows; complete sends its notice at m + C + P,
#   returns at once (SMPI does not wait for its puts there), + C: rank 0
#   m + 2C + P. The notice and the put start together on the same link
#   (0 -> 1): after their latency L, max-min gives each B/2 until the
#   notice's 16 bytes are through (32/B), so the put ends 16/B later than
#   alone: E = m + C + P + d(k) + 16/B. Rank 1's wait receives the notice,
#   then waits for the put (E), + C: rank 1 E + C.
# fence: MPI_MODE_NOPRECEDE = one linear barrier (rank 1 -> rank 0, then
#   rank 0 -> rank 1): rank 0 leaves it at m, rank 1 at 2m, each + F. Rank
#   0's put starts its data at s = m + F + P. The closing fence (NOSUCCEED)
#   = barrier, wait for the puts, barrier. Barrier 2: rank 1 sends at
#   2m + F, rank 0 posts its receive at m + F + P (later: P > m), gets it
#   at 2m + F + P and sends the release on the put's link: the put ends
#   16/B later, E = s + d(k) + 16/B. Rank 1 waits for the put (E: the
#   release arrived before), then barrier 3: its message reaches rank 0 at
#   E + m, rank 0's release rank 1 at E + 2m; + F. Rank 0: E + m + F =
#   2m + 2F + P + d(k) + 16/B; rank 1: E + 2m + F.
# Valid while the data outlasts what overlaps it: P > m and k/B > m (true
# for the sizes below; the detached threshold's neighbours 65535 and 65536
# included: RMA does not change protocol there).
L=20e-6 B=125e6
F=7e-6 C=5e-6 K=3e-6
for k in 65535 65536 100000; do
  d=$(calc "$L + ($k + 16) / $B")
  m=$(calc "$L + 16 / $B")
  P=$(calc "1.5e-6 + $k * 0.5e-9")
  G=$(calc "2.5e-6 + $k * 0.25e-9")
  declare -A want=(
    [lock.0]=$(calc "2 * $K + $P + $d")
    [lockget.0]=$(calc "2 * $K + $G + $d")
    [pscw.0]=$(calc "$m + 2 * $C + $P")
    [pscw.1]=$(calc "$m + 2 * $C + $P + $d + 16 / $B")
    [fence.0]=$(calc "2 * $m + 2 * $F + $P + $d + 16 / $B")
    [fence.1]=$(calc "3 * $m + 2 * $F + $P + $d + 16 / $B")
  )
  privs=(dlopen)
  [ "$k" = 65536 ] && privs+=(no)
  for priv in "${privs[@]}"; do
    for mode in lock lockget pscw fence; do
      out=$(epoch "$RMA" "$priv" "$mode" "$k")
      for r in 0 1; do
        [ -n "${want[$mode.$r]:-}" ] || continue
        got=$(end_of "$out" "$r")
        check_close "$mode k=$k privatization=$priv rank $r" "${got:-none}" "${want[$mode.$r]}" 1e-9
      done
    done
  done
  unset want
done

# 2. Without <rma>: SMPI charges the put the MPI_Isend overhead (2 us +
# 0.1 ns/B) and, in the unlock's flush, the origin the receive overhead
# (4 us + 0.2 ns/B).
k=100000
got=$(end_of "$(epoch "$NONE" dlopen lock $k)" 0)
check_close "no <rma>: lock/put/unlock = isend-o + d(k) + recv-o" "${got:-none}" \
  "$(calc "2e-6 + $k * 0.1e-9 + $L + ($k + 16) / $B + 4e-6 + $k * 0.2e-9")" 1e-9

# expect_refusal WHAT PATTERN MODEL-FILE: hnm-run refuses the model (refuse,
# tests/lib.sh): nothing simulated.
expect_refusal() {
  refuse "$1" "$2" "$HNM_RUN" --model "$3" "${PLAT[@]}" -np 2 "${SIMOPTS[@]}" "$SIM_BIN/rma_epochs" lock 8
}
bad() { sed "$2" "$RMA" >"$TMP/$1.xml"; echo "$TMP/$1.xml"; }
# The message names the attribute's own line of the two-line <rma>: put-o
# and get-per-byte on line 14, fence and lock on line 15.
expect_refusal "negative put-o" "neg-put\.xml:14: rma attribute 'put-o'" "$(bad neg-put 's/put-o="1.5us"/put-o="-1.5us"/')"
expect_refusal "fence above 1 s" "big-fence\.xml:15: rma attribute 'fence'" "$(bad big-fence 's/fence="7us"/fence="2s"/')"
expect_refusal "lock not a time" "nan-lock\.xml:15: rma attribute 'lock'" "$(bad nan-lock 's/lock="3us"/lock="soon"/')"
expect_refusal "negative per-byte" "neg-get\.xml:14: rma attribute 'get-per-byte'" \
  "$(bad neg-get 's/get-per-byte="0.25ns"/get-per-byte="-0.25ns"/')"
expect_refusal "unknown rma attribute" "unknown-attr\.xml:[0-9]+: invalid model: .*put-latency" \
  "$(bad unknown-attr 's/put-o=/put-latency=/')"
expect_refusal "two rma elements" "twice\.xml:[0-9]+: invalid model" "$(bad twice 's|</hnm-model>|  <rma/>\n</hnm-model>|')"
expect_refusal "rma before the segments" "before\.xml:[0-9]+: invalid model" \
  "$(bad before '/<rma /,/flush=/d; s|<limiter|<rma fence="1us"/>\n  <limiter|')"
cat >"$TMP/loggps.xml" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE hnm-model SYSTEM "hnm-model.dtd">
<hnm-model name="lg" version="1">
  <loggps L="5us" o="1us" g="0" G="1ns" s="0" S="64KiB" Os="0" Or="0"/>
  <rma put-o="1us"/>
</hnm-model>
XML
expect_refusal "rma with loggps" "loggps\.xml:[0-9]+: invalid model" "$TMP/loggps.xml"

# 4. Fast mode would put point-to-point overheads on RMA wires.
err=$TMP/err
out=$("$HNM_RUN" --fast --model "$RMA" "${PLAT[@]}" -np 2 "${SIMOPTS[@]}" "$SIM_BIN/rma_epochs" lock 8 2>"$err")
status=$?
check "--fast with <rma>: exit 2 (got $status)" [ "$status" -eq 2 ]
check "--fast with <rma>: says why (got: $(head -c 300 "$err"))" grep -q -- "--fast: model '.*rma-costs.xml' has one-sided costs" "$err"
check "--fast with <rma>: one line" [ "$(wc -l <"$err")" -eq 1 ]
check "--fast with <rma>: nothing simulated" [ -z "$out" ]

finish
