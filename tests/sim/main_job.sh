#!/usr/bin/env bash
# The main job's workload and platform: under fluid, a ping-pong between
# rank 0 (node-0, cabinet 1) and rank 16 (node-16, cabinet 3) takes, one way,
# the route latency 10 + 5 + 5 + 10 us (node up, cabinet up, cabinet down,
# node down; limiters have none) times the bundled fluid's latency factor
# fL, plus (k + 16) / (fB B) with B the 1 Gb/s node link, the narrowest on
# the route, and fB its bandwidth factor (model/models/fluid.xml, fitted to
# graphene's data by scripts/bundled-models; to 1e-8: the demo prints 9
# significant digits). Then scripts/main-job itself runs and
# prints its table.
source "$(dirname "$0")/lib.sh"

B=125000000
FL=$(fluid_factor lat-factor) FB=$(fluid_factor bw-factor)
check "the bundled fluid's factors read ($FL, $FB)" awk -v a="$FL" -v b="$FB" 'BEGIN { exit !(a > 0 && b > 0) }'
out=$("$HNM_RUN" --model fluid -np 32 "${SIMOPTS[@]}" "$APPS_BIN/pingpong_alltoall" \
  --pingpong-sizes 1,1024,65536,4194304 --alltoall-sizes 1024)
while IFS=, read -r op k procs t; do
  [ "$op" = pingpong ] || continue
  check_close "fluid ping-pong $k B one way" "$t" "$(calc "$FL * 30e-6 + ($k + 16) / ($FB * $B)")" 1e-8
done <<<"$out"
check "four ping-pong sizes" [ "$(grep -c '^pingpong,' <<<"$out")" -eq 4 ]
check "one alltoall" grep -q '^alltoall,1024,32,' <<<"$out"

table=$("$SOURCE_DIR/scripts/main-job" "$BUILD_DIR" 2>/dev/null)
check "main job prints one row per measurement" [ "$(grep -cE '^(pingpong|alltoall) ' <<<"$table")" -eq 7 ]
check "main job has the three models" grep -q 'hybrid(graphene) *loggps *fluid' <<<"$table"
finish
