#!/usr/bin/env bash
# hnm-route's default routes (the "default" lines of --paths):
#  1. hand-computed examples: hop counts, link order (longest dimension
#     first, BG/Q dimension letters) and the tie rule at half a ring;
#  2. equal, link by link, to the routes SimGrid 3.32 computes on the bgq
#     platform hnm-platform writes for the same shape (route_print): every
#     ordered pair of 4x2x3x2x2 (rings of 4, 3 and 2, dimensions sorted with
#     ties) and of 2x2x2x2x2, and every pair from two ranks of 4x4x4x8x2.
# A hop from rank x to rank y is SimGrid's link bgq_link_from_X_to_Y_UP in the
# + direction and bgq_link_from_Y_to_X_DOWN in the - direction (X, Y the host
# indices of the hostfile's lines x and y; docs/multipath.md).
# Environment: HNM_ROUTE, HNM_PLATFORM, ROUTE_PRINT.
source "$(dirname "$0")/../sim/lib.sh"
tmp=$WORK

# default_line SHAPE SRC DST: "HOPS DIRS RANKS..." of the default route.
default_line() {
  printf '%s %s 1\n' "$2" "$3" >"$tmp/one"
  "$HNM_ROUTE" --shape "$1" --pattern-file "$tmp/one" --k 1 --paths "$tmp/one.paths" >/dev/null
  awk '$1 == "default" { $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print }' "$tmp/one.paths"
}

# --- 1. Hand-computed examples ---------------------------------------------
# 4x4x4x4x2 (rank = (((a*4 + b)*4 + c)*4 + d)*2 + e; routed A, B, C, D, E):
# (0,0,0,0,0) -> (2,1,0,3,1) = rank 295: A+ twice (0 -> 2 at half a ring of
# 4 goes +), B+ once, D 0 -> 3 the short way (-), E+: ranks 128 256 288 294 295.
check "4x4x4x4x2 0 -> 295" [ "$(default_line 4x4x4x4x2 0 295)" = "5 A+A+B+D-E+ 0 128 256 288 294 295" ]
# Half a ring of 4 from coordinate 2 to 0 goes - (SimGrid's exception), from
# 1 to 3 and from 3 to 1 goes +.
check "4x4x4x4x2 A 2 -> 0 goes -" [ "$(default_line 4x4x4x4x2 256 0)" = "2 A-A- 256 128 0" ]
check "4x4x4x4x2 A 1 -> 3 goes +" [ "$(default_line 4x4x4x4x2 128 384)" = "2 A+A+ 128 256 384" ]
check "4x4x4x4x2 A 3 -> 1 goes +" [ "$(default_line 4x4x4x4x2 384 128)" = "2 A+A+ 384 0 128" ]
# E (a ring of 2): 0 -> 1 is E+, 1 -> 0 is E-.
check "E 0 -> 1" [ "$(default_line 4x4x4x4x2 0 1)" = "1 E+ 0 1" ]
check "E 1 -> 0" [ "$(default_line 4x4x4x4x2 1 0)" = "1 E- 1 0" ]
# 4x4x4x16x2 is routed D, A, B, C, E (longest first): (1,0,0,8,0) = rank
# ((1*4*4)*16 + 8)*2 = 528 from 0: D+ 8 times (half a ring of 16 from 0), then A+.
r=$(default_line 4x4x4x16x2 0 528)
check "4x4x4x16x2 0 -> 528: D first (${r})" [ "$r" = "9 D+D+D+D+D+D+D+D+A+ 0 2 4 6 8 10 12 14 16 528" ]
# (0,0,0,8,0) = 16 -> 0: from d/2 to 0, the - way.
r=$(default_line 4x4x4x16x2 16 0)
check "4x4x4x16x2 16 -> 0: D- at half ring (${r})" [ "$r" = "8 D-D-D-D-D-D-D-D- 16 14 12 10 8 6 4 2 0" ]
# A ring of 3 (C of 4x2x3x2x2, routed A, C, B, D, E): 0 -> 2 is one hop C-;
# rank = (((a*2 + b)*3 + c)*2 + d)*2 + e, c = 2 is rank 8.
check "ring of 3: 0 -> 2 is C-" [ "$(default_line 4x2x3x2x2 0 8)" = "1 C- 0 8" ]
# Hop count = torus distance: (3,1,1,1,1) = ((((3*2+1)*3+1)*2+1)*2+1) = 91 from 0:
# A 1 (3 -> 0 the short way: -), C 1, B 1, D 1, E 1, in the order A C B D E.
r=$(default_line 4x2x3x2x2 0 91)
check "4x2x3x2x2 0 -> 91 (${r})" [ "$(echo "$r" | cut -d' ' -f1,2)" = "5 A-C+B+D+E+" ]

# --- 2. Equal to SimGrid's routes --------------------------------------------
# compare SHAPE PATTERN_FILE: hnm-route's default routes as link names vs route_print.
compare() {
  local shape=$1 pairs=$2
  "$HNM_PLATFORM" bgq --shape "$shape" -o "$tmp/p.xml" --hostfile "$tmp/p.hosts"
  "$HNM_ROUTE" --shape "$shape" --pattern-file "$pairs" --k 1 --paths "$tmp/p.paths" >/dev/null
  awk 'FNR == NR { host[NR - 1] = substr($1, 6); next }
       $1 == "default" {
         line = "node-" host[$2] " node-" host[$3] " " $5
         for (h = 0; h < $5; h++) {
           x = host[$(7 + h)]; y = host[$(8 + h)]
           line = line (substr($6, 2 * h + 2, 1) == "+" ? " bgq_link_from_" x "_to_" y "_UP" : " bgq_link_from_" y "_to_" x "_DOWN")
         }
         print line
       }' "$tmp/p.hosts" "$tmp/p.paths" | sort >"$tmp/ours"
  local args
  mapfile -t args < <(awk 'FNR == NR { host[NR - 1] = $1; next } { print host[$1]; print host[$2] }' "$tmp/p.hosts" "$pairs")
  "$ROUTE_PRINT" "$tmp/p.xml" "${args[@]}" 2>/dev/null | sort >"$tmp/simgrid"
  local n
  n=$(wc -l <"$tmp/simgrid")
  echo "$shape: $n routes from SimGrid, $(wc -l <"$tmp/ours") from hnm-route"
  check "$shape: $n routes, all as SimGrid's" cmp -s "$tmp/ours" "$tmp/simgrid"
  check "$shape: as many routes as pairs" [ "$n" -eq "$(wc -l <"$pairs")" ]
}

awk 'BEGIN { for (s = 0; s < 96; s++) for (d = 0; d < 96; d++) if (s != d) print s, d, 1 }' >"$tmp/all96"
compare 4x2x3x2x2 "$tmp/all96"
awk 'BEGIN { for (s = 0; s < 32; s++) for (d = 0; d < 32; d++) if (s != d) print s, d, 1 }' >"$tmp/all32"
compare 2x2x2x2x2 "$tmp/all32"
awk 'BEGIN { for (d = 0; d < 1024; d++) { if (d != 0) print 0, d, 1; if (d != 555) print 555, d, 1 } }' >"$tmp/from2"
compare 4x4x4x8x2 "$tmp/from2"
finish
