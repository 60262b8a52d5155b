#!/usr/bin/env bash
# tests/mutations.sh [REGEX] -- does each test catch the defect it is named
# for? Each line of the table below breaks one subject on purpose (replace
# the one occurrence of FROM by TO in FILE) and names the ctest test that
# must then fail. The script copies the tree (git's files, as they are in
# the work tree) to a scratch directory, builds it once, then for each
# mutation: applies it, rebuilds, runs that test alone, restores the file.
# A mutation whose test still passes is "NOT CAUGHT"; a FROM that is not in
# FILE exactly once is "STALE" (the code moved: update the line).
# Not in ctest (it rebuilds once per mutation): run it by hand, and in a
# bench job. REGEX keeps the mutations whose test name matches it.
# Add one line for each new test, naming the subject it protects.
# Exit status: 0 every mutation caught; 1 one was not, or is stale; 2 usage.
# Environment: HNM_MUTATIONS_DIR (scratch, default a new temporary
# directory, removed at the end), JOBS (build jobs, default nproc).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FILTER=${1:-}
case $FILTER in -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
JOBS=${JOBS:-$(nproc)}

MUTATIONS=()
# mutate TEST FILE FROM TO: one mutation (FROM and TO are literal text).
mutate() { MUTATIONS+=("$1" "$2" "$3" "$4"); }

# --- the table ------------------------------------------------------------------
# reliability.option_table: an option's refusal says why.
mutate reliability.option_table core/hnm_opt.c '"needs an argument"' '""'
# layering.conventions: a helper that exits.
mutate layering.conventions core/hnm_opt.c 'hnm_errf(err, errlen, "%s", why[0] != '"'"'\0'"'"' ? why : "invalid option");' 'exit(2);'
# layering.conventions_detects: the checker lets a 121-line function pass.
mutate layering.conventions_detects scripts/check-conventions 'MAX_LINES=120' 'MAX_LINES=121'
# docs.names: a path and a tool the docs name that do not exist.
mutate docs.names docs/architecture.md '`scripts/check-conventions` (ctest' '`scripts/check-convention` (ctest'
mutate docs.names README.md '`hnm-linkplot` (link-load maps)' '`hnm-linkplots` (link-load maps)'
# install.relocated: an internal header installed.
mutate install.relocated core/CMakeLists.txt 'hnm_install_headers(hnm_error.h hnm_units.h)' 'hnm_install_headers(hnm_error.h hnm_units.h)
install(FILES hnm_msg.h DESTINATION ${HNM_INSTALL_INCLUDE})'
# compare.bad_input: hnm-compare plot refuses an output it cannot create before printing its table.
mutate compare.bad_input tools/hnm_compare_plot.c 'hnm_out_check(a->dat, "-o", err, errlen) != 0 ||' '0 ||'
# calibration.fit_model: the fit's robust reweighting (IRLS) against outliers.
mutate calibration.fit_model calibration/hnm_fit.c 'it < iters; it++' 'it < 0; it++'
# calibration.readers: the probe's send and receive columns, each in its field.
mutate calibration.readers calibration/hnm_calibrate_csv.c '(hnm_fit_probe){v[0], v[1], v[2], v[3], v[4]}' '(hnm_fit_probe){v[0], v[1], v[3], v[2], v[4]}'
# sim.main_job: graphene's numbers (its detached segment's bandwidth factor)
# against SimGrid's own model configured with them.
mutate sim.main_job model/models/graphene.xml 'lat-factor="2.5" bw-factor="0.90"' 'lat-factor="2.5" bw-factor="0.91"'
# routing.ugal: UGAL keeps minimal on an exact tie (its backlog against Valiant's plus the threshold).
mutate routing.ugal platforms/hnm_routing.c 'h_min * lat <= q_val' 'h_min * lat < q_val'
# unit.out: core's writer refuses an output that is one of the tool's inputs.
mutate unit.out core/hnm_out.c '  if (hnm_out_not_input(real, o->what, err, errlen) != 0) {' '  if (0) {'
# calibration.signals: hnm-calibrate with no handler (its children and temporaries outlive it).
mutate calibration.signals calibration/hnm_calibrate.c '  cal_signals_init();' ''
# reliability.hostile: fit's size options no longer bounded to 2^53 (fit-protocol-1e300, fit-breakpoints-2p53-plus-1).
mutate reliability.hostile calibration/hnm_calibrate_fit.c 'if (b > CAL_FIT_MAX_SIZE || !cal_fit__exact(v, b))' 'if (0)'

# Readers, model files, generators: each fix and its test.
# unit.model: an error names the attribute's own line, not the tag's last.
mutate unit.model model/hnm_model_load.c '  if (ld->buf == NULL || line < 1)' '  if (ld->buf != NULL || line < 1)'
# unit.model: a DTD error about an attribute names the element's line.
mutate unit.model model/hnm_model_load.c 'e->code == XML_DTD_ATTRIBUTE_VALUE     ? e->str2' 'e->code == -1 ? e->str2'
# unit.model: 2^53 + 1 rounded to 2^53 and taken.
mutate unit.model model/hnm_model.c 'x > MODEL__MAX_BYTES || model__written_above(v, MODEL__MAX_BYTES)' 'x > MODEL__MAX_BYTES'
# unit.optscan: a whole number of 2^63 or more called "not a whole number".
mutate unit.optscan core/hnm_opt.c '(errno != 0 && errno != ERANGE)' '(errno != 0)'
# platforms.bad_input: --bw of 1e300 taken.
mutate platforms.bad_input platforms/hnm_platform_config.c '  if (*out > HNM_QUANTITY_MAX_BANDWIDTH)' '  if (0)'
# routing.linkplot: a link-load busy time of 1e300 taken.
mutate routing.linkplot platforms/hnm_linkload_csv.h '#define HNM_LINKLOAD_MAX_BUSY 1e12' '#define HNM_LINKLOAD_MAX_BUSY 1e308'
# multipath.paths_input: multipath-mpi reads its path file unbounded (fopen, no FIFO check).
mutate multipath.paths_input apps/multipath.c '  else if (hnm_input_lines_open(&r, o->paths, why, sizeof why) != 0)' '  else if ((r.f = fopen(o->paths, "r")) == NULL)'
# sim.run_cfg: hnm-run passes a bad --cfg=hnm/... to SimGrid.
mutate sim.run_cfg tools/hnm_run.c '  return run_cfg_check(arg, err, errlen);' '  return 0;'
# sim.run_cfg: hnm-run lets --cfg=hnm/link-load name an input.
mutate sim.run_cfg tools/hnm_run.c '    if (hnm_out_check(file, "--cfg=hnm/link-load", err, errlen) != 0)' '    if (0)'
# sim.run_status: a rank's exit(3) becomes hnm's deadlock, status 1.
mutate sim.run_status plugin/hnm_status.cpp '(status_deadlock && status != 0)' 'false'
# sim.run_status: the simulator outlives a SIGKILL to hnm-run.
mutate sim.run_status tools/hnm_run.c 'if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)' 'if (0)'
# Outputs onto inputs and FIFOs (hnm-route, hnm-compare, hnm-linkplot):
# multipath.bad_input: --paths onto the --pattern-file.
mutate multipath.bad_input platforms/hnm_multipath.c 'hnm_out_input(o->pattern_file, "--pattern-file", err, errlen) != 0 || ' ''
# compare.bad_input: the sweep's inputs registered; -o a FIFO; --dry-run's checks; plot's PNG checked after gnuplot.
mutate compare.bad_input tools/hnm_compare_grid.c '  if (grid__inputs(c, err, errlen) != 0)' '  if (0)'
mutate compare.bad_input tools/hnm_compare_pool.c 'return hnm_out_regular(out, "-o", err, errlen);' 'return 0;'
mutate compare.bad_input tools/hnm_compare_pool.c 'if ((rc = pool__check(&w, &top, err, sizeof err)) != 0)' 'if (0)'
mutate compare.bad_input tools/hnm_compare_plot.c '  if (hnm_gnuplot_png_written(a.png, "-o", gerr, sizeof gerr) != 0 ||' '  if (0 ||'
# compare.model_set: a refusal after --log-dir was made left it behind.
mutate compare.model_set tools/hnm_compare_pool.c '  if (c->has_sets && !w->wide) {' '  if (hnm_out_mkdirs(c->log_dir, err, errlen), c->has_sets && !w->wide) {'
# routing.linkplot: a FIFO or device for the PNG; a PNG gnuplot left incomplete.
mutate routing.linkplot tools/hnm_linkplot.c '    if (hnm_out_regular(pngs[i], "-o", err, errlen) != 0)' '    if (0)'
mutate routing.linkplot tools/hnm_linkplot.c '    if (hnm_gnuplot_png_written(pngs[i], "-o", err, errlen) != 0)' '    if (0)'

# --- the run ---------------------------------------------------------------------
command -v cmake >/dev/null && command -v git >/dev/null || { echo "mutations: needs cmake and git" >&2; exit 2; }
own_scratch=0
if [ -n "${HNM_MUTATIONS_DIR:-}" ]; then
  S=$HNM_MUTATIONS_DIR
  mkdir -p "$S" || exit 2
else
  S=$(mktemp -d "${TMPDIR:-/tmp}/hnm-mutations.XXXXXX") || exit 1
  own_scratch=1
fi
cleanup() { [ $own_scratch = 1 ] && rm -rf "$S"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "mutations: copying the tree to $S/src"
mkdir -p "$S/src"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$S/src") || exit 1
echo "mutations: building (cmake, make -j$JOBS)"
cmake -S "$S/src" -B "$S/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$S/configure.log" 2>&1 ||
  { tail -20 "$S/configure.log"; exit 1; }
make -C "$S/build" -j"$JOBS" >"$S/build.log" 2>&1 || { tail -20 "$S/build.log"; exit 1; }

n=0 caught=0 missed=0 stale=0
for ((i = 0; i < ${#MUTATIONS[@]}; i += 4)); do
  test=${MUTATIONS[i]} file=${MUTATIONS[i + 1]} from=${MUTATIONS[i + 2]} to=${MUTATIONS[i + 3]}
  [ -n "$FILTER" ] && ! [[ $test =~ $FILTER ]] && continue
  n=$((n + 1))
  f=$S/src/$file
  count=$(FROM=$from perl -0777 -ne '$n = () = /\Q$ENV{FROM}\E/g; print $n' "$f" 2>/dev/null)
  if [ "${count:-0}" != 1 ]; then
    echo "STALE      $test: '$from' is in $file ${count:-0} times, not once"
    stale=$((stale + 1))
    continue
  fi
  cp -p "$f" "$f.orig"
  FROM=$from TO=$to perl -0777 -pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$f"
  if ! make -C "$S/build" -j"$JOBS" >"$S/mutant.log" 2>&1; then
    echo "CAUGHT     $test: $file: '$from' -> '$to' (the build fails)"
    caught=$((caught + 1))
  elif (cd "$S/build" && ctest -R "^${test//./\\.}\$" >"$S/test.log" 2>&1); then
    if grep -q "No tests were found" "$S/test.log"; then
      echo "STALE      $test: no such test"
      stale=$((stale + 1))
    else
      echo "NOT CAUGHT $test: $file: '$from' -> '$to' (the test passes)"
      missed=$((missed + 1))
    fi
  else
    echo "CAUGHT     $test: $file: '$from' -> '$to'"
    caught=$((caught + 1))
  fi
  mv "$f.orig" "$f"
  touch "$f"
done
make -C "$S/build" -j"$JOBS" >/dev/null 2>&1
echo "mutations: $n tried, $caught caught, $missed not caught, $stale stale"
[ $n -gt 0 ] || { echo "mutations: no mutation matches '$FILTER'"; exit 2; }
[ $missed -eq 0 ] && [ $stale -eq 0 ]
