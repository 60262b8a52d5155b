#!/usr/bin/env bash
# Golden files of hnm-platform: each line of $GOLDEN/MANIFEST names a pair
# NAME.xml / NAME.hosts (and NAME.err, the notes on stderr) and the exact
# arguments that made it. The files are regenerated and compared byte for
# byte; every golden platform must load in SimGrid 3.32 with the expected
# host count, and its hostfile must name only hosts of the platform, each
# as often as the platform's cores say.
#
# HNM_REGENERATE_GOLDEN=1 rewrites the golden files instead of comparing
# them (then review the diff and commit). Every golden file is also
# validated with xmllint against SimGrid 3.32's DTD, $HNM_SIMGRID_DTD
# (tests/data/simgrid/simgrid.dtd); the test fails if it is missing.
#
# Environment (ctest, tests/platforms/CMakeLists.txt): HNM_PLATFORM,
# PLATFORM_LOAD, GOLDEN, HNM_SIMGRID_DTD.
source "$(dirname "$0")/../sim/lib.sh"

# each_host_k_times HOSTFILE N K: the lines are node-0 .. node-(N-1), each K times.
each_host_k_times() {
  sort "$1" | uniq -c | awk -v n="$2" -v k="$3" '
    { if ($1 != k || $2 !~ /^node-[0-9]+$/ || substr($2, 6) + 0 >= n) bad = 1; count++ }
    END { exit bad || count != n }'
}

# dtd_valid FILE LOG: FILE valid against $HNM_SIMGRID_DTD (its DOCTYPE, an
# URL, pointed at that file; nothing is fetched); LOG gets xmllint's
# complaints. SimGrid's DTD itself declares <zone>'s content model
# ambiguously, which libxml2 reports on any file with a zone (an error
# status from 2.12 on): that one report, about the DTD, is not the file's.
dtd_valid() {
  sed "s|SYSTEM \"https://simgrid.org/simgrid.dtd\"|SYSTEM \"$HNM_SIMGRID_DTD\"|" "$1" |
    xmllint --noout --nonet --valid - 2>&1 |
    awk '/Content model of [a-zA-Z_]+ is not determinist/ { getline; getline; next } { print }' >"$2"
  [ ! -s "$2" ]
}

check "SimGrid's DTD is readable (HNM_SIMGRID_DTD=${HNM_SIMGRID_DTD:-unset})" \
  [ -n "${HNM_SIMGRID_DTD:-}" -a -r "${HNM_SIMGRID_DTD:-/nonexistent}" ]
check "xmllint is installed (libxml2-utils)" bash -c "command -v xmllint >/dev/null"

work=$WORK

while read -r name hosts args; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  read -r -a argv <<<"$args"
  out=$work/$name
  "$HNM_PLATFORM" "${argv[@]}" -o "$out.xml" --hostfile "$out.hosts" 2>"$out.err"
  status=$?
  check "$name: hnm-platform exits 0 (got $status: $(head -c 300 "$out.err"))" [ "$status" -eq 0 ]
  if [ "${HNM_REGENERATE_GOLDEN:-0}" = 1 ]; then
    cp "$out.xml" "$out.hosts" "$out.err" "$GOLDEN/"
    echo "regenerated $GOLDEN/$name.{xml,hosts,err}"
  else
    for ext in xml hosts err; do
      check "$name.$ext: identical to the golden file (diff $GOLDEN/$name.$ext)" \
        cmp -s "$out.$ext" "$GOLDEN/$name.$ext"
    done
  fi

  # SimGrid loads the golden file with the expected host count.
  loaded=$("$PLATFORM_LOAD" "$GOLDEN/$name.xml" --log=root.thres:critical 2>"$out.load")
  check "$name: SimGrid loads it (got '$loaded', $(head -c 300 "$out.load"))" \
    grep -qx "hosts $hosts links [0-9]*" <<<"$loaded"

  # The hostfile names hosts of the platform, each the same number of times
  # (the cores of each host, 1 if no core attribute).
  cores=$(grep -o 'core="[0-9]*"' "$GOLDEN/$name.xml" | head -1 | tr -dc 0-9)
  cores=${cores:-1}
  check "$name: hostfile has hosts x cores = $((hosts * cores)) lines" \
    [ "$(wc -l <"$GOLDEN/$name.hosts")" -eq $((hosts * cores)) ]
  check "$name: every host node-0 .. node-$((hosts - 1)) appears $cores times" \
    each_host_k_times "$GOLDEN/$name.hosts" "$hosts" "$cores"

  dtd_valid "$GOLDEN/$name.xml" "$out.lint"
  valid=$?
  check "$name: valid against SimGrid's DTD ($(head -c 300 "$out.lint" 2>/dev/null))" [ "$valid" -eq 0 ]
done <"$GOLDEN/MANIFEST"

# Naming the tests rely on: the graphene routes and node limiters, the BG/Q
# routing order and rank mapping, as SimGrid itself computes them.
# Degomme et al. 2013, Fig. 5 shows a communication "from node 40 to node
# 104" of graphene, whose hosts are numbered from 1 (graphene-1 ..
# graphene-144, cabinets of 39, 35, 30, 40): node 40 is the first of
# cabinet 2 and node 104 the last of cabinet 3, here node-39 and node-103
# (numbered from 0). The grayed constraints: both node limiters, the node
# links, cabinet 2's uplink and limiter, cabinet 3's limiter and downlink.
# tests/platforms/routes.sh asserts the same route on a fresh graphene.
route=$("$PLATFORM_LOAD" "$GOLDEN/cluster-graphene.xml" node-39 node-103 --log=root.thres:critical | tail -1)
check "graphene route of Degomme et al. 2013, Fig. 5 (node 40 -> node 104 = node-39 -> node-103) (got: $route)" \
  [ "$route" = "node-39 -> node-103: cab2_link_39_limiter cab2_link_39_UP cab2-up cab2-limiter cab3-limiter cab3-down cab3_link_103_DOWN cab3_link_103_limiter" ]

# bgq-1024 is 4x4x4x8x2, topo_parameters D,A,B,C,E = 8,4,4,4,2. Rank 0 is
# node-0; rank 1023 = (3,3,3,7,1) is node 7 + 8*(3 + 4*(3 + 4*(3 + 4*1))) =
# node-1023. From (0,0,0,0,0) to (1,0,0,1,0) (rank 258 -> line 259), BG/Q
# goes along D first (longest), then A: node-0 -> node-1 -> node-9.
r258=$(sed -n 259p "$GOLDEN/bgq-1024.hosts")
check "bgq rank 258 = (1,0,0,1,0) runs on node-9 (got $r258)" [ "$r258" = node-9 ]
route=$("$PLATFORM_LOAD" "$GOLDEN/bgq-1024.xml" node-0 node-9 --log=root.thres:critical | tail -1)
check "bgq route (0,0,0,0,0) -> (1,0,0,1,0) goes D then A (got: $route)" \
  [ "$route" = "node-0 -> node-9: bgq_link_from_0_to_1_UP bgq_link_from_1_to_9_UP" ]

# torus-4x3x2 (limiter 1.5): dimension 0 (size 4) first; half-way ties go
# the positive way except from coordinate 2 to 0 (TorusZone's rule); and the
# limiter of a node a route passes through is crossed too (why the topology
# families default to no limiter).
routes=$("$PLATFORM_LOAD" "$GOLDEN/torus-4x3x2.xml" node-0 node-2 node-2 node-0 node-0 node-13 \
  --log=root.thres:critical | tail -3)
check "torus routes: ties, dimension order, transit limiters (got: $routes)" [ "$routes" = "\
node-0 -> node-2: torus_link_0_limiter torus_link_from_0_to_1_UP torus_link_1_limiter torus_link_from_1_to_2_UP torus_link_2_limiter
node-2 -> node-0: torus_link_2_limiter torus_link_from_1_to_2_DOWN torus_link_1_limiter torus_link_from_0_to_1_DOWN torus_link_0_limiter
node-0 -> node-13: torus_link_0_limiter torus_link_from_0_to_1_UP torus_link_1_limiter torus_link_from_1_to_13_UP torus_link_13_limiter" ]

finish
