#!/usr/bin/env bash
# Routes of generated platforms, read back from SimGrid (route_print) and
# checked against hand-derived expectations:
#   torus: as many links as the shortest wrap-around distance, dimension 0
#     (the first of --dims) routed first;
#   bgq: same, and the dimensions are crossed in BG/Q's order, longest first,
#     shortest last (ties: A before B ...), with ranks placed by the ABCDE
#     mapping (E fastest) read from the hostfile;
#   fattree: a route climbs only to the nearest common ancestor (2 x level links);
#   dragonfly: minimal: two node links, at most one hop per intra-group
#     dimension on each side, exactly one global link between groups;
#   cluster: a route between cabinets crosses both cabinets' limiters, a
#     route inside a cabinet crosses neither.
# Environment: HNM_PLATFORM (the generator), ROUTE_PRINT (this directory's program).
source "$(dirname "$0")/../sim/lib.sh"
tmp=$WORK

routes() { "$ROUTE_PRINT" "$@" 2>/dev/null; }

# torus_check PLATFORM DIMS(comma, SimGrid order) LETTERS(one per SimGrid dim, in
# the order hops must follow) PAIRS...: every pair "a b" of host ids.
# Prints one line per violation; the caller counts them.
torus_check() {
  local plat=$1 dims=$2
  shift 2
  local args=()
  for p in "$@"; do args+=("node-${p% *}" "node-${p#* }"); done
  routes "$plat" "${args[@]}" | awk -v dims="$dims" '
    function coords(id, c,   j) { for (j = 1; j <= nd; j++) { c[j] = id % d[j]; id = int(id / d[j]) } }
    BEGIN { nd = split(dims, d, ",") }
    {
      a = substr($1, 6) + 0; b = substr($2, 6) + 0; n = $3
      coords(a, ca); coords(b, cb); want = 0
      for (j = 1; j <= nd; j++) {
        x = ca[j] - cb[j]; if (x < 0) x = -x; if (d[j] - x < x) x = d[j] - x; want += x
      }
      if (n != want) print "pair " a " " b ": " n " links, shortest wrap-around distance " want
      last = 0
      for (k = 4; k <= NF; k++) {
        if (match($k, /_link_from_[0-9]+_to_[0-9]+_/) == 0) continue
        split(substr($k, RSTART + 11, RLENGTH - 12), ft, "_to_")
        coords(ft[1] + 0, cp); coords(ft[2] + 0, cq); dim = 0
        for (j = 1; j <= nd; j++) if (cp[j] != cq[j]) dim = j
        if (dim < last) print "pair " a " " b ": dimension " dim " crossed after dimension " last
        last = dim
      }
    }'
}

# --- torus 4x3x5: every pair from a few sources --------------------------------
"$HNM_PLATFORM" torus --dims 4x3x5 -o "$tmp/t.xml" --hostfile "$tmp/t.hosts"
pairs=()
for a in 0 7 23 59; do for b in $(seq 0 59); do [ "$a" != "$b" ] && pairs+=("$a $b"); done; done
bad=$(torus_check "$tmp/t.xml" 4,3,5 "${pairs[@]}")
check "torus 4x3x5: ${#pairs[@]} routes minimal and dimension-ordered${bad:+: $bad}" [ -z "$bad" ]

# --- bgq 4x4x4x8x2 (1024 nodes) -------------------------------------------------
# BG/Q order: longest first, ties in ABCDE order: D(8) A(4) B(4) C(4) E(2), so
# SimGrid's dimensions are 8,4,4,4,2 and rank r with ABCDE coordinates
# (a,b,c,d,e), r = (((a*4+b)*4+c)*8+d)*2+e, must sit on host id
# d + 8*(a + 4*(b + 4*(c + 4*e))).
"$HNM_PLATFORM" bgq --shape 4x4x4x8x2 -o "$tmp/b.xml" --hostfile "$tmp/b.hosts"
check "bgq hostfile has 1024 ranks" [ "$(wc -l <"$tmp/b.hosts")" -eq 1024 ]
bad=$(awk '{
  r = NR - 1; e = r % 2; r = int(r / 2); d = r % 8; r = int(r / 8); c = r % 4; r = int(r / 4); b = r % 4; a = int(r / 4)
  want = "node-" (d + 8 * (a + 4 * (b + 4 * (c + 4 * e))))
  if ($1 != want) { print "rank " NR - 1 " on " $1 ", expected " want; exit }
}' "$tmp/b.hosts")
check "bgq ranks follow the ABCDE mapping${bad:+: $bad}" [ -z "$bad" ]
pairs=()
for a in 0 1 100 511 1023; do for b in 0 1 2 8 9 31 32 127 128 512 700 1023; do [ "$a" != "$b" ] && pairs+=("$a $b"); done; done
bad=$(torus_check "$tmp/b.xml" 8,4,4,4,2 "${pairs[@]}")
check "bgq: ${#pairs[@]} routes minimal, longest dimension first${bad:+: $bad}" [ -z "$bad" ]

# --- fattree: 2 levels, 4 hosts per leaf, 4 leaves ------------------------------
# The nearest common ancestor of hosts a and b is their leaf switch when
# a / 4 == b / 4 (route: 2 links), else a top switch (4 links).
"$HNM_PLATFORM" fattree --down 4,4 --up 1,2 --links 1,1 -o "$tmp/f.xml"
args=()
for a in 0 5 15; do for b in $(seq 0 15); do [ "$a" != "$b" ] && args+=("node-$a" "node-$b"); done; done
bad=$(routes "$tmp/f.xml" "${args[@]}" | awk '{
  a = substr($1, 6) + 0; b = substr($2, 6) + 0
  want = (int(a / 4) == int(b / 4)) ? 2 : 4
  if ($3 != want) print "pair " a " " b ": " $3 " links, nearest common ancestor needs " want }')
check "fattree: routes climb only to the nearest common ancestor${bad:+: $bad}" [ -z "$bad" ]

# --- dragonfly: 3 groups x 2 chassis x 3 routers x 2 nodes (36 hosts) -------------
# Host id -> (group g, chassis c, router r, node), node fastest. Minimal
# routing on this wiring (the global link between groups g and h joins
# router h of chassis 0 of g to router g of chassis 0 of h): two node links;
# between groups exactly one global (blue) link plus one hop for each of
# r_src != g_dst, c_src != 0, r_dst != g_src, c_dst != 0; inside a group one
# hop for r_src != r_dst and one for c_src != c_dst.
# SimGrid 3.32 is minimal between groups, but inside a group, after a router
# hop it continues from chassis 0 instead of the source's chassis
# (DragonflyZone::get_local_route indexes routers_ without the chassis): when
# r_src != r_dst it crosses a chassis link iff c_dst != 0, whatever c_src.
# Those routes are checked against that documented behaviour (docs/platforms.md).
"$HNM_PLATFORM" dragonfly --groups 3 --chassis 2 --routers 3 --nodes 2 -o "$tmp/d.xml"
args=()
for a in 0 7 20 35; do for b in $(seq 0 35); do [ "$a" != "$b" ] && args+=("node-$a" "node-$b"); done; done
res=$(routes "$tmp/d.xml" "${args[@]}" | awk '
  function co(id, c) { c["n"] = id % 2; id = int(id / 2); c["r"] = id % 3; id = int(id / 3); c["c"] = id % 2; c["g"] = int(id / 2) }
  {
    a = substr($1, 6) + 0; b = substr($2, 6) + 0; co(a, s); co(b, t); blue = 0
    for (k = 4; k <= NF; k++) if ($k ~ /blue/) blue++
    known = 0
    if (s["g"] == t["g"]) {
      want = 2 + (s["r"] != t["r"]) + (s["c"] != t["c"]); wblue = 0
      if (s["r"] != t["r"]) { sg = 2 + 1 + (t["c"] != 0); if (sg != want) { known = 1; want = sg } }
    } else {
      want = 2 + (s["r"] != t["g"]) + (s["c"] != 0) + 1 + (t["r"] != s["g"]) + (t["c"] != 0); wblue = 1
    }
    if ($3 != want || blue != wblue) print "BAD pair " a " " b ": " $3 " links (" blue " global), expected " want " (" wblue ")"
    else if (known) print "KNOWN"
    else print "MINIMAL"
  }')
bad=$(grep '^BAD' <<<"$res" || true)
check "dragonfly: routes minimal (or SimGrid's documented intra-group detour)${bad:+: $bad}" [ -z "$bad" ]
check "dragonfly: most routes minimal ($(grep -c MINIMAL <<<"$res") minimal, $(grep -c KNOWN <<<"$res") SimGrid detours)" \
  [ "$(grep -c MINIMAL <<<"$res")" -gt "$(grep -c KNOWN <<<"$res")" ]

# --- cluster (graphene preset): limiters --------------------------------------------
"$HNM_PLATFORM" cluster --preset graphene -o "$tmp/g.xml" 2>/dev/null
out=$(routes "$tmp/g.xml" node-0 node-1 node-0 node-39 node-39 node-103 node-104 node-143)
check "graphene: inside a cabinet, no cabinet link" \
  bash -c '! grep "^node-0 node-1 " <<<"$1" | grep -q "cab[0-9]*-"' _ "$out"
check "graphene: cabinet 1 -> 2 crosses both cabinet limiters" \
  bash -c 'grep "^node-0 node-39 " <<<"$1" | grep -q "cab1-limiter cab2-limiter"' _ "$out"
# Degomme et al. 2013, Fig. 5 numbers nodes from 1: its nodes 40 and 104 are
# node-39 (first of cabinet 2) and node-103 (last of cabinet 3) here; the same
# route as tests/platforms/golden.sh asserts on the golden graphene.
check "graphene: Figure 5's route crosses both node limiters and cabinets 2 and 3's limiters" \
  bash -c 'grep -q "^node-39 node-103 8 cab2_link_39_limiter cab2_link_39_UP cab2-up cab2-limiter cab3-limiter cab3-down cab3_link_103_DOWN cab3_link_103_limiter$" <<<"$1"' _ "$out"
check "graphene: inside cabinet 4, no cabinet limiter" \
  bash -c '! grep "^node-104 node-143 " <<<"$1" | grep -q "cab[0-9]*-limiter"' _ "$out"

finish
