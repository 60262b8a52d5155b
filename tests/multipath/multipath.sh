#!/usr/bin/env bash
# apps/multipath moves hnm-route's path splits; simulated under hnm-run's
# fluid model on hnm-platform's bgq platform (T = route latency + (k + 16)/B for
# a message alone on its links, docs/models.md), and run with Open MPI.
#  1. Hand-computed: 4x2x2x2x2 (64 nodes, rings of 4 on A), one pair 0 -> 32
#     (A: 0 -> 2), X = 8 MiB, c = 1.8 GB/s, 40 ns per hop. hnm-route --simgrid
#     --slack 0 finds the two 2-hop paths A+A+ (via 16) and A-A- (via 48); the
#     LP splits X in halves. Chunks of s = 128 KiB (rendezvous: a send ends
#     when its data has arrived), one chunk in flight per hop and path:
#       direct: one message over 2 links:         80 ns + (X + 16) / c
#       default, forwarded (n = X/s = 64 chunks): (n + 1)(40 ns + (s + 16) / c)
#       lp, two disjoint paths of X/2 (n = 32):   (n + 1)(40 ns + (s + 16) / c)
#     Every rank starts at time 0 (--no-barrier), so these are exact.
#  2. The gain in simulation: subset 1:8 on 4x4x2x2x2 (128 nodes, 8 sources
#     x 8 destinations, 1 MiB each): the LP's forwarded paths finish before
#     the direct messages, and neither beats hnm-route's link-load time.
#  3. Open MPI, 32 ranks: the bytes forwarded along the LP's paths arrive
#     intact (--verify).
# Environment: HNM_ROUTE, HNM_PLATFORM, HNM_RUN, APPS_BIN.
source "$(dirname "$0")/../apps/lib.sh"
need mpirun "$APPS_BIN/multipath-mpi"
tmp=$WORK
MP=$APPS_BIN/multipath
c=1800000000 X=8388608 s=131072

# simrun SHAPE NP ARGS...: multipath under fluid on the bgq platform of SHAPE.
simrun() {
  local shape=$1 np=$2
  shift 2
  "$HNM_PLATFORM" bgq --shape "$shape" -o "$tmp/$shape.xml" --hostfile "$tmp/$shape.hosts"
  timeout 300 "$HNM_RUN" --model "$FLUID" -platform "$tmp/$shape.xml" -hostfile "$tmp/$shape.hosts" -np "$np" \
    "${SIMOPTS[@]}" "$MP" "$@"
}
move_time() { awk -F, '$2 == "move" { print $8 }' <<<"$1"; }

# 1. Hand-computed.
echo "0 32 $X" >"$tmp/one.txt"
"$HNM_ROUTE" --shape 4x2x2x2x2 --pattern-file "$tmp/one.txt" --simgrid --k 4 --slack 0 --paths "$tmp/one.paths" >/dev/null
check "LP: two paths of X/2" [ "$(grep -c "^lp 0 32 4194304 2 " "$tmp/one.paths")" -eq 2 ]
for m in direct default lp; do
  out=$(simrun 4x2x2x2x2 64 --paths "$tmp/one.paths" --method $m --no-barrier --verify)
  check "$m: data verified" grep -q "^verify: ok" <<<"$out"
  case $m in
    direct) want=$(calc "80e-9 + ($X + 16) / $c") ;;
    default) want=$(calc "($X / $s + 1) * (40e-9 + ($s + 16) / $c)") ;;
    lp) want=$(calc "($X / 2 / $s + 1) * (40e-9 + ($s + 16) / $c)") ;;
  esac
  check_close "$m: simulated time" "$(move_time "$out")" "$want" 1e-9
done

# 2. The gain in simulation.
"$HNM_ROUTE" --shape 4x4x2x2x2 --pattern subset --bytes 1MiB --simgrid --csv --paths "$tmp/sub.paths" >"$tmp/sub.csv"
bound_def=$(awk -F, '$1 == "default" { print $2 }' "$tmp/sub.csv")
bound_lp=$(awk -F, '$1 == "lp" { print $2 }' "$tmp/sub.csv")
t_direct=$(move_time "$(simrun 4x4x2x2x2 128 --paths "$tmp/sub.paths" --method direct --no-barrier --no-payload)")
t_lp=$(move_time "$(simrun 4x4x2x2x2 128 --paths "$tmp/sub.paths" --method lp --no-barrier --no-payload)")
echo "subset 4x4x2x2x2, 1 MiB: direct $t_direct s (link bound $bound_def s), lp forwarded $t_lp s (LP $bound_lp s)"
check "direct no faster than its link load allows" awk -v t="$t_direct" -v b="$bound_def" 'BEGIN { exit !(t >= b) }'
check "lp no faster than the LP optimum" awk -v t="$t_lp" -v b="$bound_lp" 'BEGIN { exit !(t >= b) }'
check "lp forwarded beats direct ($t_lp < $t_direct)" awk -v a="$t_lp" -v b="$t_direct" 'BEGIN { exit !(a < b) }'

# 3. Open MPI.
"$HNM_ROUTE" --shape 2x2x2x2x2 --pattern subset --bytes 300KiB --paths "$tmp/mpi.paths" >/dev/null
out=$(mpi 32 "$APPS_BIN/multipath-mpi" --paths "$tmp/mpi.paths" --method lp --chunk 65536 --verify)
check "Open MPI: lp paths deliver intact data" grep -q "^verify: ok" <<<"$out"
check "Open MPI: one CSV line" [ "$(grep -c '^multipath,move,lp,32,' <<<"$out")" -eq 1 ]
finish
