#!/usr/bin/env bash
# A build without SimGrid, as on a laptop that has none: configured from
# this source tree with pkg-config unable to find SimGrid (PKG_CONFIG_LIBDIR
# empty) and the default HNM_PLUGIN=AUTO, it must
#  - configure, saying it builds without the plugin, and build;
#  - pass its own ctest (tests/nosimgrid: the fit, the platform generators
#    against their golden files, the routing unit test, hnm-route);
#  - give the same fitted model as this build's hnm-calibrate, byte for
#    byte (plafrim's platform-calibration data);
# and HNM_PLUGIN=ON must refuse to configure without SimGrid.
# Environment (tests/install/CMakeLists.txt): BUILD, SOURCE, CMAKE.
source "$SOURCE/tests/lib.sh"

mkdir -p "$WORK/empty"
export PKG_CONFIG_LIBDIR=$WORK/empty PKG_CONFIG_PATH=

"$CMAKE" -S "$SOURCE" -B "$WORK/b" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$WORK/configure.log" 2>&1
check_eq "configure without SimGrid: exit status" "$?" 0
check "configure says it builds without the plugin" grep -q 'hnm: no SimGrid >= 3.32 found: building without the plugin' \
  "$WORK/configure.log"
"$CMAKE" --build "$WORK/b" -j "$(nproc)" >"$WORK/build.log" 2>&1
rc=$?
check_eq "build without SimGrid: exit status ($(tail -n 1 "$WORK/build.log"))" "$rc" 0
(cd "$WORK/b" && ctest -j "$(nproc)" >"$WORK/ctest.log" 2>&1)
rc=$?
check_eq "ctest of the build without SimGrid: exit status ($(grep 'tests passed' "$WORK/ctest.log"))" "$rc" 0
n=$(sed -n 's/.*tests passed, [0-9]* tests failed out of \([0-9]*\)$/\1/p' "$WORK/ctest.log")
check "ctest of the build without SimGrid ran its tests (${n:-none})" test "${n:-0}" -ge 10
check "the fit's tests ran there" grep -q 'calibration.synthetic .*Passed' "$WORK/ctest.log"

cfg=$SOURCE/tests/data/platform-calibration/plafrim_15_06_16/calibration/testplatform.xml
"$WORK/b/bin/hnm-calibrate" fit --platform-calibration "$cfg" -o "$WORK/off.xml" --no-plots 2>/dev/null
"$BUILD/bin/hnm-calibrate" fit --platform-calibration "$cfg" -o "$WORK/on.xml" --no-plots 2>/dev/null
check "the same fitted model with and without SimGrid" cmp "$WORK/off.xml" "$WORK/on.xml"

"$CMAKE" -S "$SOURCE" -B "$WORK/on" -DHNM_PLUGIN=ON >"$WORK/on.log" 2>&1
check_eq "HNM_PLUGIN=ON without SimGrid: configure fails" "$?" 1
check "HNM_PLUGIN=ON without SimGrid: says which package" grep -q "simgrid>=3.32" "$WORK/on.log"
finish
