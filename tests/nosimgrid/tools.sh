#!/usr/bin/env bash
# The tools that need no SimGrid, in a build without it (HNM_PLUGIN=OFF):
#  1. no binary of bin/ links libsimgrid, and the plugin's are absent;
#  2. hnm-platform writes every golden platform of tests/data/golden byte
#     for byte (the goldens are checked against SimGrid's own loader by
#     platforms.golden in a build with SimGrid);
#  3. hnm-calibrate fits plafrim's platform-calibration data into a model
#     and its per-decade table (tests/install/no_simgrid.sh compares that
#     model with the one of the build with SimGrid, byte for byte);
#  4. hnm-route prints its default-routing table for a 512-node BG/Q.
source "$SOURCE_DIR/tests/lib.sh"

# 1
for b in "$BIN"/*; do
  [ -x "$b" ] || continue
  check "$(basename "$b") does not link SimGrid" bash -c "! ldd '$b' | grep -q libsimgrid"
done
check "no hnm-hosts without SimGrid" test ! -e "$BIN/hnm-hosts"
check "no libhnm.so without SimGrid" test ! -e "$BIN/../lib/libhnm.so"

# 2
while read -r name hosts args; do
  case "$name" in ''|'#'*) continue ;; esac
  # shellcheck disable=SC2086
  "$BIN/hnm-platform" $args -o "$WORK/$name.xml" --hostfile "$WORK/$name.hosts" 2>"$WORK/$name.err"
  check "hnm-platform $name: the golden XML" cmp "$WORK/$name.xml" "$GOLDEN/$name.xml"
  check "hnm-platform $name: the golden hostfile" cmp "$WORK/$name.hosts" "$GOLDEN/$name.hosts"
done <"$GOLDEN/MANIFEST"

# 3
cfg=$DATA/platform-calibration/plafrim_15_06_16/calibration/testplatform.xml
"$BIN/hnm-calibrate" fit --platform-calibration "$cfg" -o "$WORK/plafrim.xml" --no-plots --file-breakpoints \
  2>"$WORK/fit.err"
check_eq "hnm-calibrate fit: exit status" "$?" 0
check "hnm-calibrate fit: a model with segments" test "$(grep -c '<segment ' "$WORK/plafrim.xml")" -gt 1
check "hnm-calibrate fit: the per-decade table" grep -q '^  1e2-1e3' "$WORK/fit.err"

# 4
"$BIN/hnm-route" --shape 512 --pattern subset --csv >"$WORK/route.csv" 2>"$WORK/route.err"
check_eq "hnm-route: exit status" "$?" 0
check "hnm-route: a table" test -s "$WORK/route.csv"

finish
