#!/usr/bin/env bash
# The same predictions on every SimGrid hnm supports (docs/simgrid-versions.md):
# a fixed set of simulations, every simulated time of which must equal the
# golden file's to 1e-9 relative. The golden file was recorded on SimGrid
# 3.32 (Debian 12); scripts/test-distro runs this test unchanged on 4.0
# (trixie) and 4.1 (sid), so the same numbers hold there. Where a SimGrid
# version changes SMPI's behaviour on purpose, its own values go in
# versions-MAJOR.MINOR.csv beside the golden file (the whole set, in its
# place), with the upstream commit
# named in docs/simgrid-versions.md (none so far).
# The set: the bundled models graphene, loggps, fluid, smpi-default and
# smpi-fixed, and a model fitted here from plafrim's platform-calibration
# data (hnm-calibrate fit, pure C: the same file on every version), each on
#  - ping-pong (1 B to 4 MiB) and alltoall at 4 ranks on the bundled cluster
#    (apps/pingpong_alltoall, `make run`'s program);
#  - the four skeletons (gcr, halo, transpose, monc_halo) at 16 ranks on a
#    two-cabinet hnm-platform cluster.
# Independently of the golden file, smpi-default's lines must equal plain
# smpirun of the running version (sim.differential_smpi_default checks that
# for more programs); the LogGPS closed forms are sim.loggps_closed_form's,
# which runs on every version too.
# Regenerate (on Debian 12 only): HNM_REGENERATE_GOLDEN=1 ctest -R sim.versions
source "$(dirname "$0")/lib.sh"
TMP=$WORK
GOLDEN=$SOURCE_DIR/tests/data/golden/versions.csv
"$BUILD_DIR/bin/hnm-platform" cluster --cabinets 2 --nodes 8 -o "$TMP/p.xml" --hostfile "$TMP/h" 2>/dev/null
SKELETON_ARGS[transpose]="--nx 32 --ny 16 --nz 8 --algo ring --k 4 --no-payload"
"$BUILD_DIR/bin/hnm-calibrate" fit --no-plots -o "$TMP/fitted.xml" \
  --platform-calibration "$DATA/platform-calibration/plafrim_15_06_16/calibration/testplatform.xml" 2>/dev/null
check "the fitted model" test -s "$TMP/fitted.xml"
DEFAULT_PLATFORM=$SOURCE_DIR/platforms/default.xml
DEFAULT_HOSTS=$SOURCE_DIR/platforms/default.hosts

# run LABEL MODEL PLATFORM HOSTS NP PROGRAM ARGS...: "MODEL-LABEL|LINE" for
# each line of the simulation's output but the CSV header.
run() {
  local label=$1 model=$2
  shift 2
  local name=$model
  [ "$model" = "$TMP/fitted.xml" ] && name=fitted
  hnm "$model" "$@" 2>"$TMP/err" | awk -v k="$name|$label" '!/^(op|program),/ { print k "|" $0 }'
}

for m in graphene loggps fluid smpi-default smpi-fixed "$TMP/fitted.xml"; do
  run pingpong_alltoall "$m" "$DEFAULT_PLATFORM" "$DEFAULT_HOSTS" 4 "$APPS_BIN/pingpong_alltoall"
  for s in gcr halo transpose monc_halo; do
    # shellcheck disable=SC2086
    run "$s" "$m" "$TMP/p.xml" "$TMP/h" 16 "$APPS_BIN/$s" ${SKELETON_ARGS[$s]}
  done
done >"$TMP/got.csv"

if [ -n "${HNM_REGENERATE_GOLDEN:-}" ]; then
  cp "$TMP/got.csv" "$GOLDEN"
  echo "regenerated $GOLDEN on SimGrid $SG_VERSION"
fi

# The golden values: this version's own file if it has one, else 3.32's.
want=$GOLDEN
own=$SOURCE_DIR/tests/data/golden/versions-$(sg_version).csv
[ -f "$own" ] && want=$own

check_eq "SimGrid $SG_VERSION: as many lines as the golden file" "$(wc -l <"$TMP/got.csv")" "$(wc -l <"$want")"
# Field by field: text equal, numbers within 1e-9 relative; one check per
# model and program, naming the first difference.
diffs=$(paste -d'\n' "$want" "$TMP/got.csv" | awk -F'[|,;]' '
  NR % 2 == 1 { n = split($0, w, /[|,;]/); key = $1 "|" $2; next }
  { m = split($0, g, /[|,;]/)
    if (m != n) { bad[key] = "fields " n " vs " m; next }
    for (i = 1; i <= n; i++) {
      if (w[i] == g[i]) continue
      if (w[i] ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ && g[i] ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) {
        d = w[i] - g[i]; if (d < 0) d = -d; s = w[i] < 0 ? -w[i] : w[i]
        if (d <= 1e-9 * s) continue
      }
      if (!(key in bad)) bad[key] = "field " i ": want " w[i] ", got " g[i]
    }
    seen[key] = 1 }
  END { for (k in seen) print k "\t" (k in bad ? bad[k] : "ok") }' | sort)
check "SimGrid $SG_VERSION: every model and program compared ($(wc -l <<<"$diffs"))" test "$(wc -l <<<"$diffs")" -eq 30
while IFS=$'\t' read -r key what; do
  check "SimGrid $SG_VERSION, $key: the golden times to 1e-9 ($what)" test "$what" = ok
done <<<"$diffs"

# smpi-default is plain smpirun of the running version, bit for bit.
plain "$DEFAULT_PLATFORM" "$DEFAULT_HOSTS" 4 "$APPS_BIN/pingpong_alltoall" 2>/dev/null | grep -v '^op,' >"$TMP/plain"
grep '^smpi-default|pingpong_alltoall|' "$TMP/got.csv" | cut -d'|' -f3- >"$TMP/sd"
check "smpi-default's ping-pong and alltoall are plain smpirun's, byte for byte" cmp -s "$TMP/sd" "$TMP/plain"
finish
