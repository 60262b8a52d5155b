#!/usr/bin/env bash
# hnm-calibrate fit --bootstrap N: the model set (docs/model-format.md,
# "Model sets") and its band (docs/calibration.md).
# - format: -o m.xml --bootstrap 3 writes m.xml and m.set/ holding
#   central.xml (the same bytes as m.xml), member-001.xml ... member-003.xml
#   (each loads by itself: hnm-run --explain) and .hnm-set; the directory's
#   mode is what mkdir makes (0777 & ~umask); the same seed gives the same
#   members, another seed other members; a rerun with --bootstrap 2
#   replaces the set (member-003.xml gone);
# - hnm's own CSVs (raw measurements) give a set too; held-out fits are made
#   for the bootstrap, not otherwise;
# - bad input: N = 0, N above 1000, a non-integer N, -o standard output, a
#   set path that exists and was not written by the tool (a directory
#   without .hnm-set, a regular file), a set of the tool's holding a file it
#   did not write, --report inside the set: exit 2, one line, no model
#   written and what was there untouched;
# - the bundled graphene set: central.xml = graphene.xml, 50 members that
#   load, latency factors bracketing graphene's in each of its 5 segments;
# - coverage: synthetic platform-calibration data with a known size-to-size
#   scatter (synth_pcal.sh: 5% per size and 5% per repetition), every 4th
#   size held out of the fit; the 90% band of --bootstrap 40 contains the
#   measured median round trip of at least 85% of the held-out sizes (the
#   issue's target; measured 89.8%, band half-width 8.6%; tests/calibration/band.awk
#   evaluates the members' closed forms).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/synth_pcal.sh"
B=$HNM_CALIBRATE
synth_pcal "$WORK/syn" 11 0.02
CFG=$WORK/syn/calibration/s.xml

# Format.
"$B" fit --platform-calibration "$CFG" -o "$WORK/m.xml" --no-plots --bootstrap 3 2>"$WORK/m.err"
check "set written: central.xml, 3 members, marker" \
  [ "$(cd "$WORK/m.set" && ls -A | paste -sd' ')" = ".hnm-set central.xml member-001.xml member-002.xml member-003.xml" ]
check "central.xml is the model written to -o" cmp "$WORK/m.xml" "$WORK/m.set/central.xml"
for f in "$WORK"/m.set/*.xml; do
  check "$(basename "$f") loads by itself" "$HNM_RUN" --model "$f" --explain >/dev/null
done
check "member 2 is named and described as one" grep -q 'name="calibrated-member-002".*' "$WORK/m.set/member-002.xml"
check "members differ from the central model" bash -c "! cmp -s '$WORK/m.set/central.xml' '$WORK/m.set/member-001.xml'"
mode=$(stat -c %a "$WORK/m.set")
want=$(printf '%o' $((0777 & ~$(umask))))
check "set directory mode $mode = 0777 & ~umask ($want)" [ "$mode" = "$want" ]
check "the tool says where the set is" grep -q "m.set/ (the central model and 3 members)" "$WORK/m.err"
"$B" fit --platform-calibration "$CFG" -o "$WORK/same.xml" --no-plots --bootstrap 3 2>/dev/null
check "same seed, same members" diff -r -x .hnm-set "$WORK/m.set" "$WORK/same.set"
"$B" fit --platform-calibration "$CFG" -o "$WORK/other.xml" --no-plots --bootstrap 3 --seed 2 2>/dev/null
check "another seed, other members" bash -c "! cmp -s '$WORK/m.set/member-001.xml' '$WORK/other.set/member-001.xml'"
check "another seed, the same central model" cmp "$WORK/m.set/central.xml" "$WORK/other.set/central.xml"
"$B" fit --platform-calibration "$CFG" -o "$WORK/m.xml" --no-plots --bootstrap 2 2>/dev/null
check "rerun with 2 members replaces the set" \
  [ "$(cd "$WORK/m.set" && ls -A | paste -sd' ')" = ".hnm-set central.xml member-001.xml member-002.xml" ]
check "no temporary left beside the set" [ "$(ls "$WORK" | grep -c 'tmp\|old')" = 0 ]

# hnm's own benchmark CSVs (raw measurements, Huber): a set too. A
# one-segment model with 2% noise (send 1 us + 1 ns/B, recv 2 us + 1 ns/B,
# L 10 us, B 1e9 B/s; eager and detached up to 64 KiB).
awk 'BEGIN { srand(3); print "op,size,start,duration"
  for (i = 0; i <= 40; i++) { k = int(2 ^ (i / 2)); for (r = 0; r < 4; r++) {
    T = 10e-6 + k / 1e9; so = 1e-6 + k * 1e-9; ro = 2e-6 + k * 1e-9; e = 1 + 0.02 * (rand() - 0.5)
    printf "send,%d,0,%.9g\nrecv,%d,0,%.9g\npingpong,%d,0,%.9g\n", k, (k <= 65536 ? so : T) * e,
      k, (k <= 65536 ? ro : T) * e, k, (k <= 65536 ? 2 * (so + T + ro) : 2 * T) * e } } }' >"$WORK/p2p.csv"
"$B" fit "$WORK/p2p.csv" --protocol 65536,65536 -o "$WORK/raw.xml" --no-plots --bootstrap 2 2>"$WORK/raw.err"
check "hnm's CSVs: a set of 2 members" \
  [ "$(cd "$WORK/raw.set" && ls -A | paste -sd' ')" = ".hnm-set central.xml member-001.xml member-002.xml" ]
check "hnm's CSVs: held-out errors computed for the bootstrap" grep -q "held-out: 5 fits" "$WORK/raw.err"
"$B" fit "$WORK/p2p.csv" --protocol 65536,65536 -o "$WORK/raw1.xml" --no-plots 2>"$WORK/raw1.err"
check "hnm's CSVs without --bootstrap: no held-out fits" grep -q "held-out: not computed, --held-out does" "$WORK/raw1.err"

# bad WHAT REGEX OPTIONS...: the fit with OPTIONS refused (refuse, tests/lib.sh).
bad() {
  local what=$1 re=$2
  shift 2
  refuse "$what" "$re" "$B" fit --platform-calibration "$CFG" -o "$WORK/bad.xml" --no-plots "$@"
}
bad "N = 0" "--bootstrap" --bootstrap 0
bad "N = 1001 (above 1000)" "--bootstrap" --bootstrap 1001
bad "N = 1e12" "--bootstrap" --bootstrap 1000000000000
bad "N = 2.5" "--bootstrap" --bootstrap 2.5
bad "N = ten" "--bootstrap" --bootstrap ten
"$B" fit --platform-calibration "$CFG" -o - --no-plots --bootstrap 2 >"$WORK/stdout" 2>"$WORK/bad.err"
rc=$?
check "-o - with --bootstrap: exit 2, one line, nothing on stdout" \
  bash -c "[ $rc = 2 ] && [ \$(wc -l <'$WORK/bad.err') = 1 ] && [ ! -s '$WORK/stdout' ]"
mkdir "$WORK/bad.set"
echo keep >"$WORK/bad.set/notes.txt"
bad "set directory not the tool's" "bad.set' exists and was not written by hnm-calibrate" --bootstrap 2
check "... left as it was" [ "$(ls -A "$WORK/bad.set")" = notes.txt ]
rm -r "$WORK/bad.set"
echo keep >"$WORK/bad.set"
bad "set path a regular file" "bad.set' exists and is not a model set directory" --bootstrap 2
check "... left as it was" [ "$(cat "$WORK/bad.set")" = keep ]
rm "$WORK/bad.set"
cp -r "$WORK/m.set" "$WORK/bad.set"
echo keep >"$WORK/bad.set/mine.txt"
bad "a set holding a file the tool did not write" "holds 'mine.txt'" --bootstrap 2
check "... left as it was" diff -r "$WORK/m.set" "$WORK/bad.set" -x mine.txt
rm -r "$WORK/bad.set"
bad "--report inside the set" "--report .*model set directory" --bootstrap 2 --report "$WORK/bad.set/r"
check "... nothing created" [ ! -e "$WORK/bad.set" ]

# The bundled graphene set (scripts/graphene-set): graphene.xml as its
# central model, 50 contiguous members, each loading by itself, whose
# latency factors bracket graphene's in every segment.
GS=$(dirname "$0")/../../model/models/graphene.set
check "graphene.set: central.xml is graphene.xml" cmp "$GS/central.xml" "$GS/../graphene.xml"
check "graphene.set: members 001-050, contiguous" \
  [ "$(cd "$GS" && ls member-*.xml | paste -sd' ')" = "$(for i in $(seq 1 50); do printf 'member-%03d.xml\n' "$i"; done | paste -sd' ')" ]
bad_members=0
for f in "$GS"/member-*.xml; do "$HNM_RUN" --model "$f" --explain >/dev/null 2>&1 || bad_members=$((bad_members + 1)); done
check "graphene.set: every member loads ($bad_members do not)" [ "$bad_members" = 0 ]
for s in 1 2 3 4 5; do
  read -r lo hi want <<<"$(for f in "$GS"/central.xml "$GS"/member-*.xml; do
    awk -v s=$s '/<segment / && ++n == s { match($0, /lat-factor="[^"]*"/); print substr($0, RSTART + 12, RLENGTH - 13) }' "$f"
  done | awk 'NR == 1 { w = $1; next } { v[NR] = $1 } END { lo = 1e300; hi = -1
               for (i in v) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] } print lo, hi, w }')"
  check "graphene.set: segment $s's latency factors [$lo, $hi] bracket graphene's $want" \
    awk -v l="$lo" -v h="$hi" -v w="$want" 'BEGIN { exit !(l < w && w < h) }'
done

# Coverage on held-out sizes.
cut -d' ' -f1 "$WORK/syn/truth" | awk 'NR % 4 == 3' >"$WORK/held"
mkdir -p "$WORK/train/calibration"
cp "$WORK/syn/calibration/s.xml" "$WORK/syn/calibration/s_breakpoints" "$WORK/train/calibration/"
for f in "$WORK"/syn/calibration/*.csv; do
  awk -F, 'FNR == NR { h[$1] = 1; next } !($2 in h)' "$WORK/held" "$f" >"$WORK/train/calibration/${f##*/}"
done
"$B" fit --platform-calibration "$WORK/train/calibration/s.xml" -o "$WORK/t.xml" --no-plots --bootstrap 40 2>/dev/null
awk -F, -f "$(dirname "$0")/heldout_medians.awk" "$WORK/held" "$WORK/syn/calibration/s_PingPong.csv" | sort -n \
  >"$WORK/med"
awk -f "$(dirname "$0")/band.awk" "$WORK/t.set/central.xml" "$WORK"/t.set/member-*.xml "$WORK/med" >"$WORK/band"
read -r _ covered n frac hw <<<"$(tail -1 "$WORK/band")"
echo "coverage of the 90% band on $n held-out sizes: $covered ($frac), median half-width $hw"
check "coverage >= 85% (got $frac)" awk -v f="$frac" -v n="$n" 'BEGIN { exit !(n >= 40 && f >= 0.85) }'
finish
