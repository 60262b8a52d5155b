#!/usr/bin/env bash
# The installed tree is self-sufficient and relocatable. `cmake --install`
# of this build into a temporary prefix (no rebuild), the prefix then moved
# to another path, and everything below run from the moved copy, from an
# unrelated directory, with no HNM_* variable set:
#  - no source or build path is compiled into the installed tools, libhnm.so
#    or the MPI programs (their .rodata and RUNPATH do not contain one), so
#    nothing of the build tree can be reached;
#  - the layout: bin/, lib/libhnm.so + static libraries, include/hnm/,
#    libexec/hnm/ (MPI programs), share/hnm/{models,platforms}, man pages;
#  - hnm-run --explain graphene reads the installed model; hnm-run runs the
#    installed ping-pong on the installed default platform and gives the
#    build tree's simulated times, bit for bit; the plugin's --cfg-help;
#    hnm-compare and hnm-calibrate find hnm-run, the default platform and
#    the benchmark inside the moved prefix;
#  - a C program of another project, built against the moved prefix through
#    pkg-config and through find_package(hnm), loads a bundled model (found
#    through $HNM_HOME) and reads graphene's breakpoints 1420 / 65536
#    (model/models/graphene.xml) and their neighbours.
# Environment (tests/install/CMakeLists.txt): BUILD, SOURCE, CMAKE, CC.
source "$(dirname "$0")/../sim/lib.sh"

unset HNM_HOME HNM_MODEL_DIR HNM_PLUGIN HNM_MODEL HNM_COMPARE_HNM_RUN

"$CMAKE" --install "$BUILD" --prefix "$WORK/first" >"$WORK/install.log" 2>&1
rc=$?
check "cmake --install succeeds ($(tail -1 "$WORK/install.log"))" [ $rc -eq 0 ]
mv "$WORK/first" "$WORK/moved"
P=$WORK/moved
cd "$WORK" || exit 1

# --- layout -------------------------------------------------------------------
for f in bin/hnm-run bin/hnm-compare bin/hnm-calibrate bin/hnm-platform bin/hnm-route \
         libexec/hnm/calibrate libexec/hnm/pingpong_alltoall libexec/hnm/transpose; do
  check "installed executable $f" [ -x "$P/$f" ]
done
for f in lib/libhnm.so lib/libhnmplatform.so lib/libhnmbase.a lib/libhnmmodel.a \
         include/hnm/hnm_model.h include/hnm/hnm_units.h include/hnm/hnm_error.h include/hnm/hnm_version.h \
         share/hnm/models/graphene.xml share/hnm/models/hnm-model.dtd \
         share/hnm/platforms/default.xml share/hnm/platforms/default.hosts \
         lib/pkgconfig/hnm.pc lib/cmake/hnm/hnmConfig.cmake share/doc/hnm/references.md; do
  check "installed file $f" [ -f "$P/$f" ]
done
if command -v help2man >/dev/null; then
  check "man page hnm-run.1 from --help" grep -q '^\.TH HNM-RUN' "$P/share/man/man1/hnm-run.1"
fi
check "the test programs are not installed" [ ! -e "$P/libexec/hnm/p2p_timing" ]
# The public headers, and only those: include/hnm/ of the source tree (a
# generated .h.in as its .h), nothing else under include/.
want=$(cd "$SOURCE/include" && find hnm -type f | sed 's/\.in$//' | sort | tr '\n' ' ')
got=$(cd "$P/include" && find . -type f -o -type l | sed 's|^\./||' | sort | tr '\n' ' ')
check_eq "installed headers: include/hnm/ of the source tree alone" "$got" "$want"
for h in hnm_msg.h hnm_opt.h hnm_out.h hnm_csv.h hnm_home.h hnm_model_impl.h hnm_xml.h; do
  check "internal header not installed: $h" [ ! -e "$P/include/hnm/$h" ]
done
for f in lib/libhnmtopo.a lib/libhnmpaths.a lib/libhnmfit.a include/hnm/hnm_topo.h include/hnm/hnm_fit.h; do
  check "internal library part not installed: $f" [ ! -e "$P/$f" ]
done
check "nothing installed is a link into the build or source tree" \
  bash -c '! find "$1" -type l | grep -q .' _ "$P"

# --- nothing of the build or source tree compiled in --------------------------
for f in "$P"/bin/* "$P"/lib/libhnm.so "$P"/libexec/hnm/*; do
  objcopy -O binary --only-section=.rodata "$f" "$WORK/rodata" 2>/dev/null
  check "$(basename "$f"): no build or source path in .rodata" \
    bash -c '! grep -a -q -e "$2" -e "$3" "$1"' _ "$WORK/rodata" "$BUILD" "$SOURCE"
  check "$(basename "$f"): no RUNPATH into the build or source tree" \
    bash -c '! readelf -d "$1" | grep -E "RPATH|RUNPATH" | grep -q -e "$2" -e "$3"' _ "$f" "$BUILD" "$SOURCE"
done

# --- the tools from the moved prefix ------------------------------------------
out=$("$P/bin/hnm-run" --model graphene --explain)
check "hnm-run --explain graphene" grep -q '^model: graphene ' <<<"$out"
check "... reads the moved prefix's model" grep -q "^  source: $P/share/hnm/models/graphene.xml$" <<<"$out"

RUN=(-np 4 --cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:no
     --log=root.thres:critical)
ARGS=(--pingpong-sizes 1,1420,1421,65536,65537,1048576 --alltoall-sizes 1000)
dry=$("$P/bin/hnm-run" --dry-run "${RUN[@]}" "$P/libexec/hnm/pingpong_alltoall" "${ARGS[@]}")
check "hnm-run preloads the moved libhnm.so" grep -q "LD_PRELOAD=$P/lib/libhnm.so" <<<"$dry"
check "hnm-run uses the moved default platform" grep -q -- "-platform $P/share/hnm/platforms/default.xml" <<<"$dry"
installed=$("$P/bin/hnm-run" "${RUN[@]}" "$P/libexec/hnm/pingpong_alltoall" "${ARGS[@]}" 2>&1)
rc=$?
check "installed hnm-run runs the installed app (status $rc)" [ $rc -eq 0 ]
built=$("$BUILD/bin/hnm-run" "${RUN[@]}" "$BUILD/apps/pingpong_alltoall" "${ARGS[@]}" 2>&1)
check "installed run prints times" grep -q . <<<"$installed"
check "installed run = build tree run, bit for bit" [ "$installed" = "$built" ]

# The same run with the source and build trees really out of reach: an empty
# tmpfs mounted over them in a private mount namespace (needs root, as CI
# runs; elsewhere a NOTE says it was skipped).
hidden() { # CMD...: run with $BUILD and $SOURCE hidden (the build tree first: it may lie inside)
  unshare --mount bash -c 'mount -t tmpfs none "$1" && mount -t tmpfs none "$2" && shift 2 && "$@"' \
    _ "$BUILD" "$SOURCE" "$@"
}
if hidden true 2>/dev/null; then
  check "the trees are hidden" hidden bash -c '[ ! -e "$1/CMakeLists.txt" ] && [ ! -e "$2/bin/hnm-run" ]' _ "$SOURCE" "$BUILD"
  unreachable=$(hidden "$P/bin/hnm-run" "${RUN[@]}" "$P/libexec/hnm/pingpong_alltoall" "${ARGS[@]}" 2>&1)
  check "installed run with the build and source trees unreachable = build tree run" [ "$unreachable" = "$built" ]
  out=$(hidden "$P/bin/hnm-run" --model graphene --explain)
  check "hnm-run --explain graphene with the trees unreachable" grep -q '^model: graphene ' <<<"$out"
else
  echo "NOTE: cannot unshare a mount namespace (not root?): the run with the trees unmounted is skipped"
fi

help=$("$P/bin/hnm-run" -np 1 "$P/libexec/hnm/pingpong_alltoall" --cfg-help 2>&1)
check "installed plugin's flags in --cfg-help" grep -q '^ *hnm/model: ' <<<"$help"

dry=$("$P/bin/hnm-compare" run --dry-run --model fluid --np 2 -o "$WORK/c.csv" -- "$P/libexec/hnm/pingpong_alltoall")
check "hnm-compare runs the moved hnm-run on the moved default platform" \
  grep -q "^0: $P/bin/hnm-run --model fluid -platform $P/share/hnm/platforms/default.xml " <<<"$dry"
"$P/bin/hnm-calibrate" run --simulate --model fluid -platform "$SOURCE/tests/data/platforms/two.xml" \
  -hostfile "$SOURCE/tests/data/platforms/two.hosts" -d "$WORK/cal" -- --sizes 4 --reps 1 --max 1KiB \
  --no-probe --no-contention >"$WORK/cal.log" 2>&1
check "hnm-calibrate runs the moved benchmark ($(tail -1 "$WORK/cal.log"))" \
  [ -s "$WORK/cal/p2p.csv" ]

# --- another project, built against the moved prefix --------------------------
EXPECT="model graphene
k=1420 lat-factor=1 bw-factor=0.55000000000000004
k=1421 lat-factor=1.6000000000000001 bw-factor=0.80000000000000004
k=65536 lat-factor=1.6000000000000001 bw-factor=0.84999999999999998
k=65537 lat-factor=2.5 bw-factor=0.90000000000000002"
CLIENT=$SOURCE/tests/install/client
flags=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs hnm)
check "pkg-config --cflags --libs hnm: $flags" grep -q -- "-I$P/lib/pkgconfig/../../include/hnm" <<<"$flags"
# shellcheck disable=SC2086
"$CC" -std=c11 -o "$WORK/client-pc" "$CLIENT/model_client.c" $flags >"$WORK/pc.log" 2>&1
check "client builds through pkg-config ($(head -c 300 "$WORK/pc.log"))" [ -x "$WORK/client-pc" ]
check "client (pkg-config) reads graphene's breakpoints" \
  [ "$(HNM_HOME=$P "$WORK/client-pc" graphene 1420 1421 65536 65537)" = "$EXPECT" ]
check "client without HNM_HOME names what to set" \
  bash -c '"$1" graphene 1 2>&1 | grep -q "HNM_HOME"' _ "$WORK/client-pc"

"$CMAKE" -S "$CLIENT" -B "$WORK/cm" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC" >"$WORK/cm.log" 2>&1 &&
  "$CMAKE" --build "$WORK/cm" >>"$WORK/cm.log" 2>&1
check "client builds through find_package(hnm) ($(grep -m1 -i error "$WORK/cm.log"))" [ -x "$WORK/cm/model_client" ]
check "client (find_package) reads graphene's breakpoints" \
  [ "$(HNM_HOME=$P "$WORK/cm/model_client" graphene 1420 1421 65536 65537)" = "$EXPECT" ]

finish
