#!/usr/bin/env bash
# hnm-run's command line: help, version, --explain, --dry-run (how smpirun
# is called); libhnm's SimGrid flags (--cfg=hnm/model gives the same times
# as hnm-run --model and as $HNM_MODEL, --cfg-help lists the flags), and
# libhnm refusing to run without a model.
source "$(dirname "$0")/lib.sh"

out=$("$HNM_RUN" --help)
check "--help prints usage" grep -q '^Usage: hnm-run' <<<"$out"
check "--version" grep -qE '^hnm-run [0-9]+\.[0-9]+\.[0-9]+$' <<<"$("$HNM_RUN" --version)"

for m in graphene smpi-default fluid loggps; do
  out=$("$HNM_RUN" --model "$m" --explain)
  check "--explain $m names the model" grep -q "^model: $m " <<<"$out"
done
# Inline LogGPS parameters are applied (5us, 1.5us, G = 0.1 ns/B -> 1e10 B/s eager).
out=$("$HNM_RUN" --model loggps:L=5us,o=1.5us,g=0,G=0.1ns,S=64KiB --explain)
check "inline L and o" grep -q 'L=5e-06 s o=1.5e-06 s' <<<"$out"
check "inline S" grep -q 'k <= 65536 B: lat 5e-06 s, bw 1e+10 B/s' <<<"$out"

# --dry-run: the bundled platform when none is given; the plugin preloaded
# through -wrapper, folded with the user's own wrapper.
out=$("$HNM_RUN" --model fluid --dry-run -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "dry-run passes the model as a SimGrid flag" grep -q -- ' --cfg=hnm/model:fluid ' <<<"$out"
check "dry-run: no HNM_MODEL when the flag carries it" bash -c '! grep -q HNM_MODEL <<<"$1"' _ "$out"
out_env=$("$HNM_RUN" --model loggps:L=5us,o=1us --dry-run -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "a spec SimGrid would split at ',' goes in HNM_MODEL" grep -q "^HNM_MODEL='loggps:L=5us,o=1us' " <<<"$out_env"
check "... and not in --cfg" bash -c '! grep -q hnm/model <<<"$1"' _ "$out_env"
refuse "--cfg=hnm/model next to --model" "^hnm-run: '--cfg=hnm/model:loggps' conflicts with --model" \
  "$HNM_RUN" --model fluid --dry-run -np 2 --cfg=hnm/model:loggps "$SIM_BIN/p2p_timing"
check "dry-run preloads the plugin, the simulator dying with smpirun (hnm-run --die-with-parent)" grep -q "'[^ ']*/hnm-run --die-with-parent env LD_PRELOAD=[^ ]*libhnm.so[^ ]*'" <<<"$out"
check "dry-run adds the default platform" grep -q -- '-platform [^ ]*platforms/default.xml' <<<"$out"
out=$("$HNM_RUN" --model fluid --dry-run -wrapper "valgrind -q" -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "user wrapper folded" grep -q "'[^ ']*/hnm-run --die-with-parent env LD_PRELOAD=[^ ]*libhnm.so[^ ]* valgrind -q'" <<<"$out"
check "user wrapper not passed twice" [ "$(grep -o -- '-wrapper' <<<"$out" | wc -l)" -eq 1 ]

# Everything after the program is the program's, even when it is spelled
# like an option of smpirun or of hnm-run: it reaches the program unchanged,
# in order (argv_echo prints its arguments), and leaves the command alone.
# (SimGrid itself takes --cfg=, --log=, --help, --version and "--" out of a
# program's arguments, sg_config.cpp: not hnm-run's to change.)
PROG_ARGS=(-wrapper x -platform y -hostfile z -np 3 -map -trace --model loggps --dry-run -wrapper)
got=$("$HNM_RUN" --model fluid -platform "$DATA/platforms/two.xml" -hostfile "$DATA/platforms/two.hosts" -np 2 \
  "${SIMOPTS[@]}" --log=root.thres:critical "$SIM_BIN/argv_echo" "${PROG_ARGS[@]}" 2>/dev/null)
want=$(printf '[%s]\n' "${PROG_ARGS[@]}")
check "program arguments named like options reach the program unchanged (got: $(tr '\n' ' ' <<<"$got"))" \
  [ "$got" = "$want" ]
out=$("$HNM_RUN" --model fluid --dry-run -np 2 "$SIM_BIN/argv_echo" -wrapper "valgrind -q")
check "a program's -wrapper is not folded into hnm-run's" grep -q -- "argv_echo -wrapper 'valgrind -q'$" <<<"$out"
check "... and the preload wrapper is hnm-run's own" grep -q "'[^ ']*/hnm-run --die-with-parent env LD_PRELOAD=[^ ]*libhnm.so[^ ]*' " <<<"$out"

out2=$("$HNM_RUN" --model fluid --dry-run --no-tcmalloc -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "--no-tcmalloc preloads the plugin only" grep -q "'[^ ']*/hnm-run --die-with-parent env LD_PRELOAD=[^ :]*libhnm.so'" <<<"$out2"
check "fluid (max-min, mended Lazy): hnm-run keeps SimGrid's network/optim" \
  bash -c '! grep -q -- "network/optim" <<<"$1"' _ "$out2"
out3=$("$HNM_RUN" --model graphene --dry-run -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "graphene (max-min, mended Lazy): hnm-run keeps SimGrid's network/optim" \
  bash -c '! grep -q -- "network/optim" <<<"$1"' _ "$out3"
out3l=$("$HNM_RUN" --model loggps --dry-run -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "loggps (port order): hnm-run adds network/optim:Full" grep -q -- "--cfg=network/optim:Full" <<<"$out3l"
check "no tcmalloc by default" grep -q "'[^ ']*/hnm-run --die-with-parent env LD_PRELOAD=[^ :]*libhnm.so'" <<<"$out3"
out4=$("$HNM_RUN" --model smpi-default --dry-run -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "smpi-default keeps SimGrid's network/optim" bash -c '! grep -q -- "network/optim" <<<"$1"' _ "$out4"
out5=$("$HNM_RUN" --model loggps --dry-run --cfg=network/optim:Lazy -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "a user's network/optim wins" [ "$(grep -o -- 'network/optim:[A-Za-z]*' <<<"$out5")" = "network/optim:Lazy" ]
check "hnm-run options after smpirun's" grep -q -- '--cfg=hnm/model:fluid ' <<<"$("$HNM_RUN" -np 2 --model fluid --dry-run "$SIM_BIN/p2p_timing")"

# The plugin on its own, without a model: refuses with exit 2.
plugin=$(sed -n "s/.*LD_PRELOAD=\([^ ']*\).*/\1/p" <<<"$out")
err=$(env -u HNM_MODEL smpirun -wrapper "env LD_PRELOAD=$plugin" -platform "$DATA/platforms/two.xml" \
  -hostfile "$DATA/platforms/two.hosts" -np 2 "${SIMOPTS[@]}" "$SIM_BIN/p2p_timing" 1:0:0 2>&1)
status=$?
check "libhnm without a model fails" [ "$status" -eq 2 ]
check "libhnm says why" grep -q 'no model is set.*--cfg=hnm/model' <<<"$err"
check "nothing simulated" bash -c "! grep -q '^send' <<<\"\$1\"" _ "$err"

# The same model three ways: hnm-run --model, the flag, the environment.
# p2p_timing prints each operation's simulated times (%.17g): identical.
# (One override only: SimGrid splits --cfg values at ','.)
SPEC=loggps:S=1KiB
TWO=(-platform "$DATA/platforms/two.xml" -hostfile "$DATA/platforms/two.hosts" -np 2)
by_run=$("$HNM_RUN" --model "$SPEC" "${TWO[@]}" "${SIMOPTS[@]}" "$SIM_BIN/p2p_timing" 100000:0:0 2>/dev/null)
by_cfg=$(env -u HNM_MODEL smpirun -wrapper "env LD_PRELOAD=$plugin" "${TWO[@]}" "${SIMOPTS[@]}" \
  --cfg=network/optim:Full --cfg=hnm/model:$SPEC "$SIM_BIN/p2p_timing" 100000:0:0 2>/dev/null)
by_env=$(HNM_MODEL=$SPEC smpirun -wrapper "env LD_PRELOAD=$plugin" "${TWO[@]}" "${SIMOPTS[@]}" \
  --cfg=network/optim:Full "$SIM_BIN/p2p_timing" 100000:0:0 2>/dev/null)
check "hnm-run --model simulated something" grep -q '^send' <<<"$by_run"
check "--cfg=hnm/model gives hnm-run --model's times ($by_cfg vs $by_run)" [ "$by_cfg" = "$by_run" ]
check "\$HNM_MODEL gives the same times" [ "$by_env" = "$by_run" ]
by_fluid=$(HNM_MODEL=$SPEC smpirun -wrapper "env LD_PRELOAD=$plugin" "${TWO[@]}" "${SIMOPTS[@]}" \
  --cfg=network/optim:Full --cfg=hnm/model:fluid "$SIM_BIN/p2p_timing" 100000:0:0 2>/dev/null)
check "the flag wins over \$HNM_MODEL (fluid differs from LogGPS)" [ -n "$by_fluid" -a "$by_fluid" != "$by_run" ]
by_fluid_run=$("$HNM_RUN" --model fluid "${TWO[@]}" "${SIMOPTS[@]}" "$SIM_BIN/p2p_timing" 100000:0:0 2>/dev/null)
check "... and equals hnm-run --model fluid" [ "$by_fluid" = "$by_fluid_run" ]

# A bad spec in the flag stops the run with exit 2, naming the flag.
err=$(smpirun -wrapper "env LD_PRELOAD=$plugin" "${TWO[@]}" "${SIMOPTS[@]}" --cfg=hnm/model:nosuchmodel \
  "$SIM_BIN/p2p_timing" 1:0:0 2>&1)
status=$?
check "bad --cfg=hnm/model: exit 2" [ "$status" -eq 2 ]
check "bad --cfg=hnm/model: says so" grep -q "hnm: --cfg=hnm/model: --model: unknown model 'nosuchmodel'" <<<"$err"

# SimGrid's --cfg-help (3.32's spelling) lists the plugin's flags.
help=$(env -u HNM_MODEL smpirun -wrapper "env LD_PRELOAD=$plugin" "${TWO[@]}" "$SIM_BIN/p2p_timing" --cfg-help 2>&1)
check "--cfg-help lists hnm/model" grep -q '^ *hnm/model: hnm network model' <<<"$help"
check "--cfg-help lists hnm/verbose" grep -q '^ *hnm/verbose: ' <<<"$help"
# Stack guard pages off once the ranks would need more memory mappings than
# vm.max_map_count M allows, at 2.2 per rank: up to floor(5 M / 11) ranks
# keep them; one more does not, with a note; a given guard-size wins.
if M=$(cat /proc/sys/vm/max_map_count 2>/dev/null) && [ "$M" -gt 0 ] && [ "$M" -lt 100000000 ]; then
  n0=$((5 * M / 11))
  GTMP=$WORK/guard && mkdir -p "$GTMP"
  printf 'n-0:%d\n' $((n0 + 1)) >"$GTMP/h"
  guard() { "$HNM_RUN" --model fluid --dry-run -platform "$DATA/platforms/flat32.xml" -hostfile "$GTMP/h" "$@" \
    "$SIM_BIN/p2p_timing" 2>"$GTMP/err"; }
  out=$(guard -np "$n0")
  check "$n0 ranks (vm.max_map_count $M): guard pages kept" bash -c '! grep -q -- "contexts/guard-size" <<<"$1"' _ "$out"
  check "$n0 ranks: no note" [ ! -s "$GTMP/err" ]
  out=$(guard -np $((n0 + 1)))
  check "$((n0 + 1)) ranks: guard pages off" grep -q -- "--cfg=contexts/guard-size:0" <<<"$out"
  check "$((n0 + 1)) ranks: said once" [ "$(grep -c "vm.max_map_count" "$GTMP/err")" -eq 1 ]
  out=$(guard -np $((n0 + 1)) --cfg=contexts/guard-size:8192)
  check "a given contexts/guard-size wins" [ "$(grep -o -- 'guard-size:[0-9]*' <<<"$out")" = "guard-size:8192" ]
  out=$(guard)
  check "without -np, the hostfile's $((n0 + 1)) places count" grep -q -- "--cfg=contexts/guard-size:0" <<<"$out"
  rm -rf "$GTMP"
else
  check "vm.max_map_count is readable (got '${M:-}')" false
fi
finish
