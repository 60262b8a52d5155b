#!/usr/bin/env bash
# Bounded fuzzing; any crash, hang or sanitizer report is a failure.
#  - libFuzzer (sanitizer build with clang only): fuzz_model (model files
#    and --model specs), fuzz_hostfile (hostfiles, -np), FUZZ_SECONDS each
#    (default 8), seeded with the bundled and test models and hostfiles.
#  - AFL-style mutation (every build): mutants of seed files (hnm_mutate,
#    replayable from the seed file and number) fed to the real tools for
#    MUTATE_SECONDS (default 8, and at least 20 mutants): hnm-run --model M --explain, hnm-run with a
#    mutated hostfile, hnm-run with a mutated platform (SimGrid loads it in
#    hnm-hosts), hnm-calibrate fit on mutated measurement CSVs,
#    hnm-compare merge on mutated result CSVs. Each must exit 0 or 2 within
#    10 s, with no sanitizer report.
# fuzz.sh runs the mutation; fuzz.sh libfuzzer runs the libFuzzer targets
# instead, and is skipped (exit 77) where they were not built (no clang).
source "$(dirname "$0")/lib.sh"
MODE=${1:-mutation}
FUZZ_SECONDS=${FUZZ_SECONDS:-8} MUTATE_SECONDS=${MUTATE_SECONDS:-8}
FAILDIR=$HNM_TEST_TMPDIR/hnm-fuzz-failures
SAN_RE='AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:'

# Seeds.
S=$W/seeds && mkdir -p "$S/model" "$S/hosts" "$S/csv" "$S/plat" "$S/cmp"
cp "$SOURCE_DIR"/model/models/*.xml "$DATA"/models/*.xml "$S/model/"
cp "$DATA"/platforms/*.hosts "$S/hosts/" && printf 'n-0:2\n\nn-1\n' >"$S/hosts/colon.hosts"
cp "$DATA"/platforms/two.xml "$S/plat/"
awk 'BEGIN { print "op,size,start,duration"
  for (k = 1; k <= 4194304; k *= 2) for (r = 0; r < 3; r++) {
    printf "send,%d,0,%.9g\n", k, 1e-6 + k * 1e-10; printf "recv,%d,0,%.9g\n", k, 2e-6 + k * 1e-10
    printf "pingpong,%d,0,%.9g\n", k, 2 * (2e-5 + 3e-6 + k * 1.2e-9) } }' >"$S/csv/p2p.csv"
printf 'size,delay,send,recv,pingpong\n1,0.001,1e-06,2e-06,4.6e-05\n65536,0.001,1e-05,2e-05,0.0002\n' >"$S/csv/probe.csv"
{ echo "index,program,args,model,platform,np,metric,options,time_s,wall_s,maxrss_kib,status,exit_code"
  echo "0,/bin/true,--k 4,graphene,two,2,simclock,--cfg=smpi/simulate-computation:no,0.0113863,0.349,7011,ok,0"
  echo '1,/bin/true,,"loggps:L=5us,o=1us",two,4,csv:time_s,,,0.161,7012,failed,1'; } >"$S/cmp/result.csv"
printf 'pairs,mode,size,rank,duration\n1,uni,1048576,0,0.0011\n1,uni,1048576,1,0.0011\n1,bi,1048576,0,0.0015\n1,bi,1048576,1,0.0015\n' >"$S/csv/contention.csv"

# --- libFuzzer -------------------------------------------------------------------
if [ "$MODE" = libfuzzer ]; then
for f in model hostfile; do
  [ -x "$REL_BIN/fuzz_$f" ] || skip "$REL_BIN/fuzz_$f was not built (libFuzzer needs clang)"
  corpus=$W/corpus-$f && mkdir -p "$corpus"
  [ $f = model ] && cp "$S"/model/* "$corpus/" || cp "$S"/hosts/* "$corpus/"
  (cd "$W" && "$REL_BIN/fuzz_$f" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
     -artifact_prefix="$W/crash-$f-" "$corpus" >"$W/fuzz-$f.log" 2>&1)
  st=$?
  check "libFuzzer $f: no crash (status $st; $(grep -E 'ERROR|SUMMARY' "$W/fuzz-$f.log" | head -2))" [ "$st" -eq 0 ]
  runs=$(grep -o 'Done [0-9]* runs' "$W/fuzz-$f.log" | grep -o '[0-9]*')
  echo "libFuzzer $f: ${runs:-?} runs in ${FUZZ_SECONDS} s"
  if [ "$st" -ne 0 ]; then mkdir -p "$FAILDIR" && cp "$W"/crash-$f-* "$FAILDIR/" 2>/dev/null; tail -30 "$W/fuzz-$f.log"; fi
done
finish
fi

# --- mutation --------------------------------------------------------------------
TWO=$DATA/platforms/two.xml TWOH=$DATA/platforms/two.hosts
run_case() { # KIND MUTANT
  case $1 in
    model) timeout 10 "$HNM_RUN" --model "$2" --explain ;;
    hosts) timeout 10 "$HNM_RUN" -platform "$TWO" -hostfile "$2" --dry-run "$PROG" ;;
    plat)  timeout 10 "$HNM_RUN" -platform "$2" -hostfile "$TWOH" --dry-run "$PROG" ;;
    csv)   timeout 10 "$HNM_CALIBRATE" fit "$2" "$3" -o "$W/mut/m.xml" --no-plots ;;
    cmp)   timeout 10 "$HNM_COMPARE" merge -o "$W/mut/merged.csv" "$2" ;;
  esac
}
mkdir -p "$W/mut"
# A mutated CSV goes with an intact one of another kind (p2p with probe, others with p2p).
cp "$S/csv/p2p.csv" "$W/pair-p2p.csv" && cp "$S/csv/probe.csv" "$W/pair-probe.csv"
n=0 bad=0 end=$((SECONDS + MUTATE_SECONDS))
seeds=("$S"/model/* "$S"/hosts/* "$S"/plat/* "$S"/csv/p2p.csv "$S"/csv/probe.csv "$S"/csv/contention.csv "$S"/cmp/*)
# MUTATE_SECONDS, and at least 20 mutants however slow the machine (a
# sanitizer build on a loaded host runs about 2 a second).
while [ $SECONDS -lt $end ] || [ $n -lt 20 ]; do
  seed=${seeds[$((n % ${#seeds[@]}))]}
  case $seed in */model/*) kind=model ext=xml ;; */hosts/*) kind=hosts ext=hosts ;; */plat/*) kind=plat ext=xml ;;
    */cmp/*) kind=cmp ext=csv ;; *) kind=csv ext=csv ;; esac
  m=$W/mut/case.$ext
  "$HNM_MUTATE" "$seed" "$m" "$n" || { check "hnm_mutate $seed $n" false; break; }
  other=$W/pair-p2p.csv; [ "$(basename "$seed")" = p2p.csv ] && other=$W/pair-probe.csv
  (cd "$W/mut" && run_case $kind "$m" "$other" >/dev/null 2>"$W/mut/err")
  st=$?
  rm -rf "$W/mut/m.xml" "$W/mut/m-report" "$W/mut/merged.csv"
  if { [ $st -ne 0 ] && [ $st -ne 2 ]; } || grep -Eq "$SAN_RE" "$W/mut/err"; then
    bad=$((bad + 1))
    mkdir -p "$FAILDIR" && cp "$m" "$FAILDIR/$kind-$n.$ext"
    echo "FAIL mutant $n of $seed ($kind): status $st, kept as $FAILDIR/$kind-$n.$ext: $(head -c 400 "$W/mut/err")"
  fi
  n=$((n + 1))
done
echo "mutation: $n mutants in ${MUTATE_SECONDS} s, $bad failures"
check "mutation: at least 20 mutants tried (got $n)" [ "$n" -ge 20 ]
check "mutation: every mutant refused or accepted cleanly ($bad failures)" [ "$bad" -eq 0 ]
finish
