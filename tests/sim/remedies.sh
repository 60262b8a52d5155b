#!/usr/bin/env bash
# hnm-run --explain's last part: the plugin's remedies of SimGrid, decided
# on the SimGrid that runs (docs/simgrid-versions.md), through hnm-hosts
# --remedies.
# 1. The Lazy mend's self-check: the four-flow pattern of docs/lazy-bug
#    loads its links 100, 10, 90 B/s unmended (LC's two flows at LA's
#    share, 45 each: the defect) and 20, 10, 10 mended (max-min by hand:
#    LB and LC each split between two flows, 5 each, LA carries the four),
#    on every version from 3.32 to 4.1; smpi-default keeps SimGrid's
#    update, defect included.
# 2. The detached-transfer list: on for 3.32, "not needed" from 3.34 (a
#    set); the window lockers' remedy on for 3.32 to 4.1.
# 3. The settings that turn them off say so: --cfg=hnm/detached-remedy:no,
#    --cfg=hnm/unlock-remedy:no, contexts/nthreads above 1.
# 4. Refusals: hnm-hosts --remedies without the plugin (exit 1) or with an
#    argument that is not --cfg= (exit 2); hnm-run --explain with a plugin
#    that cannot be loaded: the rest of --explain stands, with one warning
#    naming the reason (exit 0).
source "$(dirname "$0")/lib.sh"

explain() { "$HNM_RUN" --model "$@" --explain 2>"$WORK/err" | sed -n '/^remedies of SimGrid/,$p'; }
line() { grep -F "  $1:" <<<"$2"; }

out=$(explain graphene)
check "graphene: the remedies' header names SimGrid $SG_VERSION" \
  grep -q "^remedies of SimGrid $(sg_version)\.[0-9]* (hnm built against $(sg_version);" <<<"$out"
check_eq "graphene: three remedies" "$(grep -c '^  ' <<<"$out")" 3
check_eq "graphene: the Lazy mend on, with the self-check's loads" \
  "$(line "Lazy max-min mend (docs/lazy-bug)" "$out")" \
  "  Lazy max-min mend (docs/lazy-bug): on -- the self-check's system gives link loads 100, 10, 90 without it, max-min's 20, 10, 10 with it"
if sg_at_least 3 34; then
  check "SimGrid $SG_VERSION: the detached list needs no remedy (a set)" \
    grep -q "^  detached-transfer list (docs/scale.md): not needed -- SimGrid $(sg_version)\.[0-9]* keeps detached transfers in a std::set" <<<"$out"
else
  check "SimGrid $SG_VERSION: the detached-list remedy on" \
    grep -q "^  detached-transfer list (docs/scale.md): on -- " <<<"$out"
fi
check "SimGrid $SG_VERSION: the window lockers' remedy on" grep -q "^  window lockers (docs/scale.md): on -- " <<<"$out"
check_eq "graphene: nothing on stderr" "$(cat "$WORK/err")" ""

out=$(explain smpi-default)
check "smpi-default: SimGrid's own update, defect included" \
  grep -q "^  Lazy max-min mend (docs/lazy-bug): off -- model 'smpi-default' takes SimGrid's own selective update" <<<"$out"

out=$(explain graphene --cfg=hnm/unlock-remedy:no --cfg=hnm/detached-remedy:no)
check "--cfg=hnm/unlock-remedy:no: off, and why" \
  grep -q "^  window lockers (docs/scale.md): off -- --cfg=hnm/unlock-remedy:no$" <<<"$out"
check "--cfg=hnm/detached-remedy:no: off, and why" \
  grep -q "^  detached-transfer list (docs/scale.md): off -- --cfg=hnm/detached-remedy:no$" <<<"$out"
out=$(explain fluid --cfg=contexts/nthreads:2)
check_eq "contexts/nthreads:2: both list remedies off" \
  "$(grep -c 'off -- contexts/nthreads:2: its index is not shared between threads' <<<"$out")" 2

# 4
"$BUILD_DIR/bin/hnm-hosts" --remedies "$SOURCE_DIR/platforms/default.xml" >"$WORK/o" 2>"$WORK/e"
check_eq "hnm-hosts --remedies without libhnm.so: exit 1" "$?" 1
check "hnm-hosts --remedies without libhnm.so: says so" grep -q "^hnm-hosts: --remedies: libhnm.so is not loaded" "$WORK/e"
"$BUILD_DIR/bin/hnm-hosts" --remedies "$SOURCE_DIR/platforms/default.xml" -np 4 >"$WORK/o" 2>"$WORK/e"
check_eq "hnm-hosts --remedies PLATFORM -np 4: exit 2" "$?" 2
check "hnm-hosts --remedies PLATFORM -np 4: names the argument" grep -q "^hnm-hosts: -np: only --cfg=KEY:VALUE" "$WORK/e"
HNM_PLUGIN=$WORK/none.so "$HNM_RUN" --model graphene --explain >"$WORK/o" 2>"$WORK/e"
check_eq "--explain with a plugin that cannot load: exit 0 (the rest stands)" "$?" 0
check_eq "--explain with a plugin that cannot load: one line" "$(wc -l <"$WORK/e")" 1
check "--explain with a plugin that cannot load: a warning with the reason" \
  grep -q "^hnm-run: warning: cannot tell the remedies: .*none.so" "$WORK/e"
check "--explain with a plugin that cannot load: the model's part still printed" grep -q "^model: graphene" "$WORK/o"
check "--explain with a plugin that cannot load: no remedies listed" bash -c "! grep -q '^remedies of' '$WORK/o'"
finish
