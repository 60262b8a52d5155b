#!/usr/bin/env bash
# The three protocol modes of the hybrid model (Degomme et al. 2013, Section IV-A),
# under the bundled graphene model (async <= 64 KiB, detached <= 320 KiB) on
# two nodes (route latency 20 us, B = 125 MB/s; one flow is bounded by its
# node link, not by the 1.5 B limiter). The receiver posts 1 ms late.
#   small (1000 B, eager): MPI_Send returns after its overhead, the data
#     arrives before the receive is posted: MPI_Recv = its overhead only;
#   detached (100000 B): MPI_Send returns after its overhead, the data moves
#     only once the receive is posted: MPI_Recv = transfer + overhead;
#   large (1000000 B, rendez-vous): MPI_Send blocks until the receive is
#     posted and both end with the transfer.
# Transfer = 20us x lat-factor + (k + 16) / (B x bw-factor); the factors and
# overheads are those of model/models/graphene.xml.
source "$(dirname "$0")/lib.sh"

B=125000000
out=$(hnm graphene "$DATA/platforms/two.xml" "$DATA/platforms/two.hosts" 2 "$SIM_BIN/p2p_timing" \
  1000:0:0.001 100000:0:0.001 1000000:0:0.001)
mapfile -t sends < <(grep '^send' <<<"$out")
mapfile -t recvs < <(grep '^recv' <<<"$out")

# small: segment k <= 1420: send 1.5us + 0.25ns/B, recv 2us + 0.3ns/B
read -r _ k ts te <<<"${sends[0]}"; read -r _ _ tr re <<<"${recvs[0]}"
check_close "small: MPI_Send = overhead" "$(calc "$te - $ts")" "$(calc "1.5e-6 + $k * 0.25e-9")" 1e-9
check "small: MPI_Send returns before the receive is posted" awk -v a="$te" -v b="$tr" 'BEGIN{exit !(a < b)}'
check_close "small: MPI_Recv = overhead only (data already there)" "$(calc "$re - $tr")" \
  "$(calc "2e-6 + $k * 0.3e-9")" 1e-9

# detached: segment 65536 < k <= 327680: lat x2.5, bw x0.90, send 10us + 0.08ns/B, recv 10us + 0.08ns/B
read -r _ k ts te <<<"${sends[1]}"; read -r _ _ tr re <<<"${recvs[1]}"
check_close "detached: MPI_Send = overhead" "$(calc "$te - $ts")" "$(calc "10e-6 + $k * 0.08e-9")" 1e-9
check_close "detached: data moves after the receive is posted" "$(calc "$re - $tr")" \
  "$(calc "20e-6 * 2.5 + ($k + 16) / ($B * 0.90) + 10e-6 + $k * 0.08e-9")" 1e-9

# large: segment k > 327680: lat x4.0, bw x0.94, no overheads
read -r _ k ts te <<<"${sends[2]}"; read -r _ _ tr re <<<"${recvs[2]}"
check "large: MPI_Send blocks until the receive is posted" awk -v a="$te" -v b="$tr" 'BEGIN{exit !(a > b)}'
check_close "large: MPI_Send ends with the transfer" "$te" "$(calc "$tr + 20e-6 * 4.0 + ($k + 16) / ($B * 0.94)")" 1e-9
check_close "large: MPI_Recv ends with the transfer" "$re" "$(calc "$tr + 20e-6 * 4.0 + ($k + 16) / ($B * 0.94)")" 1e-9
finish
