#!/usr/bin/env bash
# Routes of routed platforms read back from SimGrid through hnm's platform
# library (route_print on libhnmplatform.so, description in
# $HNM_ROUTED_PLATFORM), and simulations through hnm-run:
#   - torus: --routing dor writes SimGrid's XML unchanged; the library's dor
#     gives exactly SimGrid's TorusZone routes (every pair of 4x3x5, link
#     names included) and byte-identical simulation output; valiant routes
#     are longer and differ;
#   - dragonfly minimal (every pair of a 120-node machine): one global link
#     between groups, none inside a group, hand-derived routes for 3 pairs;
#   - dragonfly valiant: a fixed pair over 4000 messages crosses each of the 4
#     possible intermediate groups, counts within 10% of 1000;
#   - same seed: byte-identical simulation output; another seed: other routes,
#     same message totals;
#   - fat tree: --routing dmodk writes SimGrid's XML unchanged; random routes
#     are as long as SimGrid's D-mod-k ones and vary;
#   - bad input: exit 2, one line, nothing written.
source "$(dirname "$0")/../sim/lib.sh"
tmp=$WORK
lib_routes() { HNM_ROUTED_PLATFORM=$1 "$ROUTE_PRINT" "$PLATFORM_LIB" "${@:2}" 2>/dev/null; }

# --- torus -----------------------------------------------------------------
"$HNM_PLATFORM" torus --dims 4x3x5 -o "$tmp/t.xml" --hostfile "$tmp/t.hosts"
"$HNM_PLATFORM" torus --dims 4x3x5 --routing dor -o "$tmp/t-dor.xml"
check "torus --routing dor: SimGrid's XML, byte for byte" cmp -s "$tmp/t.xml" "$tmp/t-dor.xml"
"$HNM_PLATFORM" torus --dims 4x3x5 --routing valiant -o "$tmp/tv.txt"
sed 's/^routing valiant$/routing dor/' "$tmp/tv.txt" >"$tmp/td.txt"
pairs=()
for a in $(seq 0 59); do for b in $(seq 0 59); do pairs+=("node-$a" "node-$b"); done; done
"$ROUTE_PRINT" "$tmp/t.xml" "${pairs[@]}" 2>/dev/null >"$tmp/sg.routes"
lib_routes "$tmp/td.txt" "${pairs[@]}" >"$tmp/lib.routes"
check "torus dor: the library's 3600 routes are SimGrid's" cmp -s "$tmp/sg.routes" "$tmp/lib.routes"
lib_routes "$tmp/tv.txt" "${pairs[@]}" >"$tmp/val.routes"
longer=$(awk 'NR == FNR { d[$1 " " $2] = $3; next }
  $1 != $2 && $3 < d[$1 " " $2] { bad++ } $1 != $2 && $3 > d[$1 " " $2] { longer++ }
  END { print bad + 0, longer + 0 }' "$tmp/sg.routes" "$tmp/val.routes")
check "torus valiant: no route shorter than dor, most longer ($longer)" awk -v x="$longer" 'BEGIN { split(x, a, " "); exit !(a[1] == 0 && a[2] > 3000) }'
SIM=(--cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:no --log=root.thres:warning)
tp=("$APPS/transpose" --no-payload --algo ring --k 4 --nx 60 --ny 60 --nz 12)
"$HNM_RUN" --model graphene -platform "$tmp/t.xml" -hostfile "$tmp/t.hosts" -np 60 "${SIM[@]}" "${tp[@]}" >"$tmp/sg.out"
"$HNM_RUN" --model graphene -platform "$tmp/td.txt" -hostfile "$tmp/t.hosts" -np 60 "${SIM[@]}" "${tp[@]}" >"$tmp/lib.out"
check "torus dor: transposition through the library byte-identical to SimGrid's torus" cmp -s "$tmp/sg.out" "$tmp/lib.out"
check "torus dor: the transposition ran" [ "$(wc -l <"$tmp/sg.out")" -ge 6 ]

# --- fat tree --------------------------------------------------------------------
# SimGrid's example XGFT 2;4,4;1,2;1,2 (16 hosts): random routes have exactly
# as many links as SimGrid's D-mod-k routes (both climb to the nearest common
# ancestor), for all 256 pairs, and vary from one message to the next.
"$HNM_PLATFORM" fattree -o "$tmp/f.xml" --hostfile "$tmp/f.hosts"
"$HNM_PLATFORM" fattree --routing dmodk -o "$tmp/f-dmodk.xml"
check "fattree --routing dmodk: SimGrid's XML, byte for byte" cmp -s "$tmp/f.xml" "$tmp/f-dmodk.xml"
"$HNM_PLATFORM" fattree --routing random --routing-seed 4 -o "$tmp/fr.txt"
pairs=()
for a in $(seq 0 15); do for b in $(seq 0 15); do pairs+=("node-$a" "node-$b"); done; done
"$ROUTE_PRINT" "$tmp/f.xml" "${pairs[@]}" 2>/dev/null | awk '{ print $1, $2, ($1 == $2 ? "loop" : $3) }' >"$tmp/fsg.len"
lib_routes "$tmp/fr.txt" "${pairs[@]}" | awk '{ print $1, $2, ($1 == $2 ? "loop" : $3) }' >"$tmp/flib.len"
check "fattree random: 256 routes as long as SimGrid's D-mod-k" cmp -s "$tmp/fsg.len" "$tmp/flib.len"
pairs=()
for i in $(seq 200); do pairs+=(node-0 node-15); done
check "fattree random: node-0 -> node-15 takes several routes over 200 messages" \
  [ "$(lib_routes "$tmp/fr.txt" "${pairs[@]}" | sort -u | wc -l)" -gt 1 ]

# --- dragonfly minimal ----------------------------------------------------------
# 3 groups x 4 chassis x 5 routers x 2 nodes, 4 global links per group pair.
"$HNM_PLATFORM" dragonfly --routing minimal -o "$tmp/dm.txt" --hostfile "$tmp/d.hosts"
pairs=()
for a in 0 3 17 40 61 119; do for b in $(seq 0 119); do pairs+=("node-$a" "node-$b"); done; done
lib_routes "$tmp/dm.txt" "${pairs[@]}" >"$tmp/dm.routes"
bad=$(awk '{ a = substr($1, 6) + 0; b = substr($2, 6) + 0; g = 0; l = 0
  for (i = 4; i <= NF; i++) { if ($i ~ /_global_/) g++; if ($i ~ /_(green|black)_/) l++ }
  want = (int(a / 40) != int(b / 40)); if (a == b) { if ($3 != 1) print "pair " a " " b; next }
  if (g != want || l > 4 || (!want && l > 2)) print "pair " a " " b ": " g " global, " l " local" }' "$tmp/dm.routes")
check "dragonfly minimal: 720 routes with one global link between groups, none inside${bad:+: $bad}" [ -z "$bad" ]
# node-0 (group 0, router 0) -> node-119 (group 2, chassis 3, router 4): copy 0 mod 4 = 0 of group 0's links to
# group 2 is group 0's global port 1 x 4 + 0 = 4, router 4 (chassis 0, router 4): a green hop; it lands on
# group 2's port 0 x 4 + 0 = 0 (router 0), then green to router 4 and black to chassis 3.
got=$(lib_routes "$tmp/dm.txt" node-0 node-119 node-3 node-5 node-3 node-2)
want="node-0 node-119 6 dragonfly_node_0_up dragonfly_green_g0_c0_r0_to_r4 dragonfly_global_g0_r4_to_g2_r0_k0 dragonfly_green_g2_c0_r0_to_r4 dragonfly_black_g2_r4_c0_to_c3 dragonfly_node_119_down
node-3 node-5 3 dragonfly_node_3_up dragonfly_green_g0_c0_r1_to_r2 dragonfly_node_5_down
node-3 node-2 2 dragonfly_node_3_up dragonfly_node_2_down"
check "dragonfly minimal: hand-derived routes" [ "$got" = "$want" ]

# --- dragonfly valiant ------------------------------------------------------------
"$HNM_PLATFORM" dragonfly --groups 6 --chassis 2 --routers 3 --nodes 2 --blue-links 3 --routing valiant \
  --routing-seed 5 -o "$tmp/dv.txt" --hostfile "$tmp/dv.hosts"
pairs=()
for i in $(seq 4000); do pairs+=(node-1 node-41); done # group 0 -> group 3
counts=$(lib_routes "$tmp/dv.txt" "${pairs[@]}" | awk '{ n = 0; for (i = 4; i <= NF; i++) if ($i ~ /_global_/) { n++
    if (n == 1) { split($i, p, "_"); mid = substr(p[6], 2) } } if (n != 2) bad++; c[mid]++ }
  END { printf "%d %d %d %d %d %d %d", bad + 0, c[0] + 0, c[1] + 0, c[2] + 0, c[3] + 0, c[4] + 0, c[5] + 0 }')
check "dragonfly valiant: 4000 routes with 2 global links, none via groups 0 or 3 ($counts)" \
  awk -v c="$counts" 'BEGIN { split(c, x, " "); exit !(x[1] == 0 && x[2] == 0 && x[5] == 0 && x[3] + x[4] + x[6] + x[7] == 4000) }'
check "dragonfly valiant: intermediate groups 1, 2, 4, 5 within 10% of 1000 ($counts)" \
  awk -v c="$counts" 'BEGIN { split(c, x, " "); for (g in x) if (g == 3 || g == 4 || g == 6 || g == 7) if (x[g] < 900 || x[g] > 1100) exit 1 }'

# --- seeds ----------------------------------------------------------------------------
# (pairwise: with the skeletons' common start (apps/skel.h) every rank
# starts a transposition at the same instant, and ring-4 on this grid (also
# on 144 x 72 x 24) then gave byte-identical output for seeds 11 and 12;
# pairwise's seeds give other times.) Another seed draws other Valiant
# groups, so UGAL's routes differ, seen whatever the times in the bytes per
# link (--link-load), while the traffic the hosts send (node-up bytes) is
# the same. (Threshold 0: with the default 10 us this small exchange leaves
# UGAL no backlog worth a detour, so every route is minimal whatever the seed.)
tp=("$APPS/transpose" --no-payload --algo pairwise --nx 72 --ny 72 --nz 12)
run_seed() { # SEED OUT (link load in OUT.csv)
  "$HNM_PLATFORM" dragonfly --groups 6 --chassis 2 --routers 3 --nodes 2 --blue-links 3 --routing ugal \
    --ugal-threshold 0 --routing-seed "$1" -o "$tmp/s$1.txt"
  "$HNM_RUN" --model graphene --link-load "$2.csv" -platform "$tmp/s$1.txt" -hostfile "$tmp/dv.hosts" -np 72 \
    "${SIM[@]}" "${tp[@]}" >"$2"
}
run_seed 11 "$tmp/a.out"
run_seed 11 "$tmp/b.out"
run_seed 12 "$tmp/c.out"
check "ugal: same seed, byte-identical output" cmp -s "$tmp/a.out" "$tmp/b.out"
check "ugal: same seed, byte-identical link load" cmp -s "$tmp/a.out.csv" "$tmp/b.out.csv"
check "ugal: another seed, other times" bash -c "! cmp -s '$tmp/a.out' '$tmp/c.out'"
bytes() { awk -F, -v r="$2" 'NR > 1 && $2 == r { printf "%s %s\n", $1, $7 }' "$1"; }
bytes "$tmp/a.out.csv" global >"$tmp/a.global"
bytes "$tmp/c.out.csv" global >"$tmp/c.global"
check "ugal: another seed, other bytes on global links (other routes)" \
  test -s "$tmp/a.global" -a -n "$(cmp "$tmp/a.global" "$tmp/c.global" 2>&1)"
up_a=$(bytes "$tmp/a.out.csv" node-up | awk '{ s += $2 } END { print s + 0 }')
up_c=$(bytes "$tmp/c.out.csv" node-up | awk '{ s += $2 } END { print s + 0 }')
check "ugal: another seed, same bytes sent by the hosts ($up_a, $up_c)" test "$up_a" = "$up_c" -a "$up_a" -gt 0
check "ugal: another seed, same message totals" [ "$(cut -d, -f1-7 "$tmp/a.out")" = "$(cut -d, -f1-7 "$tmp/c.out")" ]
r11=$(lib_routes "$tmp/s11.txt" node-1 node-41 node-1 node-41 node-1 node-41 node-1 node-41 | md5sum)
sed 's/^routing ugal-l/routing valiant-group/' "$tmp/s11.txt" >"$tmp/v11.txt"
sed 's/^routing ugal-l/routing valiant-group/; s/^seed 11/seed 12/' "$tmp/s11.txt" >"$tmp/v12.txt"
check "valiant: another seed, other routes" \
  [ "$(lib_routes "$tmp/v11.txt" node-1 node-41 node-1 node-41 node-1 node-41 node-1 node-41)" != \
    "$(lib_routes "$tmp/v12.txt" node-1 node-41 node-1 node-41 node-1 node-41 node-1 node-41)" ]
sed 's/^routing ugal-l/routing valiant-router/' "$tmp/s11.txt" >"$tmp/r11.txt"
sed 's/^routing ugal-l/routing valiant-router/; s/^seed 11/seed 12/' "$tmp/s11.txt" >"$tmp/r12.txt"
check "valiant-router: another seed, other routes" \
  [ "$(lib_routes "$tmp/r11.txt" node-1 node-41 node-1 node-41 node-1 node-41 node-1 node-41)" != \
    "$(lib_routes "$tmp/r12.txt" node-1 node-41 node-1 node-41 node-1 node-41 node-1 node-41)" ]
check "valiant-router: same seed, same routes" \
  [ "$(lib_routes "$tmp/r11.txt" node-1 node-41 node-1 node-41 node-1 node-41 node-1 node-41)" = \
    "$(lib_routes "$tmp/r11.txt" node-1 node-41 node-1 node-41 node-1 node-41 node-1 node-41)" ]
bad_r=$(lib_routes "$tmp/r11.txt" "${pairs[@]:0:2000}" | awk '{ n = 0; for (i = 4; i <= NF; i++) n += $i ~ /_global_/
  bad += n != 2 } END { print bad + 0 }')
check "valiant-router through SimGrid: 1000 routes with 2 global links ($bad_r bad)" [ "$bad_r" -eq 0 ]

# A seed given to a routing without random choices is accepted, noted and
# ignored (a script may loop over routings with one seed): same files.
seed_ignored() { # WHAT ARGS... (hnm-platform, with and without --routing-seed 7)
  local what=$1
  shift
  "$HNM_PLATFORM" "$@" -o "$tmp/n1.out" --hostfile "$tmp/n1.hosts" 2>/dev/null
  "$HNM_PLATFORM" "$@" --routing-seed 7 -o "$tmp/n7.out" --hostfile "$tmp/n7.hosts" 2>"$tmp/stderr"
  local rc=$?
  check "$what --routing-seed 7: accepted (exit $rc)" [ "$rc" -eq 0 ]
  check "$what --routing-seed 7: a note ($(head -c 200 "$tmp/stderr"))" \
    grep -q "note: --routing-seed: routing '.*' makes no random choice; the seed is ignored" "$tmp/stderr"
  check "$what --routing-seed 7: the same hostfile" cmp -s "$tmp/n1.hosts" "$tmp/n7.hosts"
}
for fam in "torus --routing dor" "torus" "fattree --routing dmodk" "fattree" "dragonfly"; do
  # shellcheck disable=SC2086
  seed_ignored "$fam" $fam
  check "$fam --routing-seed 7: the same platform" cmp -s "$tmp/n1.out" "$tmp/n7.out"
done
seed_ignored "dragonfly --routing minimal" dragonfly --groups 6 --chassis 2 --routers 3 --nodes 2 --blue-links 3 \
  --routing minimal
check "dragonfly minimal --routing-seed 7: the same routes" \
  [ "$(lib_routes "$tmp/n1.out" "${pairs[@]:0:40}" node-3 node-70 node-70 node-3)" = \
    "$(lib_routes "$tmp/n7.out" "${pairs[@]:0:40}" node-3 node-70 node-70 node-3)" ]

# --- bad input ------------------------------------------------------------------------
# bad_input WHAT EXPECTED-MESSAGE ARGS...: ARGS refused, the one line
# holding EXPECTED-MESSAGE (refuse, tests/lib.sh).
bad_input() {
  local what=$1 msg=$2
  shift 2
  refuse "$what" "$(ere_quote "$msg")" "$@"
}
bad_input "unknown dragonfly routing" \
  "--routing: 'dor' is not a dragonfly routing (minimal, valiant-group, valiant-router, ugal-l, ugal-g)" \
  "$HNM_PLATFORM" dragonfly --routing dor -o "$tmp/out.txt"
bad_input "unknown torus routing" "--routing: 'ugal' is not a torus routing (dor, valiant)" \
  "$HNM_PLATFORM" torus --routing ugal -o "$tmp/out.txt"
bad_input "unknown fattree routing" "--routing: 'ugal' is not a fattree routing (dmodk, random)" \
  "$HNM_PLATFORM" fattree --routing ugal -o "$tmp/out.txt"
bad_input "--routing on bgq" "--routing: unknown" \
  "$HNM_PLATFORM" bgq --routing dor -o "$tmp/out.txt"
bad_input "--routing on cluster" "--routing: unknown" \
  "$HNM_PLATFORM" cluster --routing minimal -o "$tmp/out.txt"
bad_input "--routing-seed not a number" "--routing-seed: '-1' is not an integer" \
  "$HNM_PLATFORM" dragonfly --routing valiant --routing-seed -1 -o "$tmp/out.txt"
bad_input "ugal with SHARED links" "--sharing: ugal-l keeps a backlog per direction" \
  "$HNM_PLATFORM" dragonfly --routing ugal --sharing SHARED -o "$tmp/out.txt"
bad_input "ugal-g with SHARED links" "--sharing: ugal-g keeps a backlog per direction" \
  "$HNM_PLATFORM" dragonfly --routing ugal-g --sharing SHARED -o "$tmp/out.txt"
bad_input "--ugal-threshold negative" "--ugal-threshold: '-1us' is negative" \
  "$HNM_PLATFORM" dragonfly --routing ugal-g --ugal-threshold -1us -o "$tmp/out.txt"
bad_input "--ugal-threshold not a time" "--ugal-threshold: " \
  "$HNM_PLATFORM" dragonfly --routing ugal-l --ugal-threshold soon -o "$tmp/out.txt"
bad_input "--ugal-threshold without ugal" "--ugal-threshold: only ugal-l and ugal-g have a threshold" \
  "$HNM_PLATFORM" dragonfly --routing minimal --ugal-threshold 1us -o "$tmp/out.txt"
bad_input "--limiter on a routed platform" "--limiter: routed platforms (--routing valiant) have no limiter" \
  "$HNM_PLATFORM" torus --routing valiant --limiter 1.5 -o "$tmp/out.txt"
sed 's/^shape .*/shape 3,4;4,3;5,1/' "$tmp/dm.txt" >"$tmp/broken.txt"
bad_input "hnm-run: broken description" "broken.txt:8: shape: '3,4;4,3;5,1' is not GROUPS" \
  "$HNM_RUN" --model fluid -platform "$tmp/broken.txt" -hostfile "$tmp/d.hosts" -np 2 "$APPS/transpose"
finish
