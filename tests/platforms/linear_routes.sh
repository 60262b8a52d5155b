#!/usr/bin/env bash
# The cluster family's two forms of routes between cabinets
# (hnm-platform cluster --cabinet-routes core|pairs) give SimGrid the same
# routes: every ordered pair of hosts, a host to itself included, has the
# same links in the same order and the same latency (route_dump, compared
# byte for byte), on the graphene preset and small shapes with and without
# cabinet limiters; the core form has 2 zoneRoutes per cabinet, the pairs
# form C x (C-1). The other families and presets of the golden files
# (MANIFEST, up to 256 hosts) are loaded and dumped too, from their golden
# file and from the generator, which must route alike.
# Environment: HNM_PLATFORM, ROUTE_DUMP, GOLDEN.
source "$(dirname "$0")/../sim/lib.sh"
tmp=$WORK

dump() { "$ROUTE_DUMP" "$1" --log=root.thres:critical >"$2"; }

# same_routes WHAT FILE-A FILE-B: route dumps equal, and not empty.
same_routes() {
  dump "$2" "$tmp/a.txt"
  dump "$3" "$tmp/b.txt"
  check "$1: routes dumped ($(wc -l <"$tmp/a.txt") pairs)" [ -s "$tmp/a.txt" ]
  check "$1: the same routes, byte for byte ($(cmp "$tmp/a.txt" "$tmp/b.txt" 2>&1 | head -1))" \
    cmp -s "$tmp/a.txt" "$tmp/b.txt"
}

shapes=("--preset graphene"
        "--cabinets 5 --nodes 3"
        "--cabinets 4 --nodes 2 --cabinet-limiter 0"
        "--cabinet-sizes 1,3,2 --cabinet-sharing FATPIPE --limiter 0 --loopback-bw none"
        "--cabinets 2 --nodes 4 --sharing SHARED"
        "--cabinets 1 --nodes 4")
for shape in "${shapes[@]}"; do
  # shellcheck disable=SC2086
  "$HNM_PLATFORM" cluster $shape -o "$tmp/core.xml" 2>/dev/null
  # shellcheck disable=SC2086
  "$HNM_PLATFORM" cluster $shape --cabinet-routes pairs -o "$tmp/pairs.xml" 2>/dev/null
  same_routes "cluster $shape: core vs pairs" "$tmp/core.xml" "$tmp/pairs.xml"
  c=$(grep -c '^ *<cluster id="cab' "$tmp/core.xml")
  check "cluster $shape: core form has 2 x $c zoneRoutes" [ "$(grep -c '<zoneRoute ' "$tmp/core.xml")" -eq $((2 * c)) ]
  check "cluster $shape: pairs form has $c x $((c - 1)) zoneRoutes" \
    [ "$(grep -c '<zoneRoute ' "$tmp/pairs.xml" || true)" -eq $((c * (c - 1))) ]
done

# Every family and preset of the golden files, up to 256 hosts.
n=0
while read -r name hosts args; do
  [[ -z $name || $name == \#* ]] && continue
  [ "$hosts" -le 256 ] || continue
  # shellcheck disable=SC2086
  "$HNM_PLATFORM" $args -o "$tmp/gen.xml" 2>/dev/null
  same_routes "$name: golden vs generated" "$GOLDEN/$name.xml" "$tmp/gen.xml"
  n=$((n + 1))
done <"$GOLDEN/MANIFEST"
check "golden platforms compared ($n)" [ "$n" -ge 6 ]
finish
