#!/usr/bin/env bash
# hnm-run checks the plugin's SimGrid settings (--cfg=hnm/KEY:VALUE) before
# SimGrid sees them (tools/hnm_run_cfg.h): SimGrid would end a comma or a
# blank in the value, an unknown key or a key without value in an uncaught
# exception (SIGABRT, exit 134, a page of backtrace), and take an empty seed.
# Exit 2, one line, nothing run, before or after the program (smpirun takes
# --cfg= anywhere). And no output of the run is one of its inputs
# (core/hnm_out.h): the link-load file of --link-load, --cfg=hnm/link-load
# or $HNM_LINK_LOAD is never the platform, the hostfile, the model or the
# program.
source "$(dirname "$0")/lib.sh"

TWO=("-platform" "$DATA/platforms/two.xml" "-hostfile" "$DATA/platforms/two.hosts" "-np" "2")
P=("$SIM_BIN/p2p_timing" 1000:0:0)

# The plugin's keys, from its source (simgrid::config::Flag declarations),
# and hnm-run's copy, from its message for a key far from every one.
plugin_keys=$(grep -h -A1 'simgrid::config::Flag<' "$SOURCE_DIR"/plugin/*.cpp | grep -o '^ *"hnm/[a-z-]*"' |
  tr -d ' "' | sort | tr '\n' ' ')
refuse "unknown key, far from every one" "hnm has no setting hnm/zzzzzzzzzz \(its settings: hnm/" \
  "$HNM_RUN" --model graphene "${TWO[@]}" --cfg=hnm/zzzzzzzzzz:1 "${P[@]}"
run_keys=$(sed -n 's/.*(its settings: \(.*\))$/\1/p' "$LIB__TMP/refuse.err" | tr -d ' ' | tr ',' '\n' | sort |
  tr '\n' ' ')
check "the plugin declares flags (got: $plugin_keys)" [ "$(wc -w <<<"$plugin_keys")" -ge 8 ]
check_eq "hnm-run's keys are the plugin's" "$run_keys" "$plugin_keys"

# cfg_refused WHAT PATTERN ARG: ARG refused before the program and after it.
cfg_refused() {
  local what=$1 re=$2 arg=$3
  refuse "$what" "^hnm-run: '$(ere_quote "$arg")': $re" "$HNM_RUN" --model graphene "${TWO[@]}" "$arg" "${P[@]}"
  refuse "$what, after the program" "^hnm-run: '$(ere_quote "$arg")': $re" \
    "$HNM_RUN" --model graphene "${TWO[@]}" "${P[@]}" "$arg"
}
cfg_refused "a comma in the value" "hnm/seed takes one value" --cfg=hnm/seed:1,5
cfg_refused "a blank in the value" "hnm/seed takes one value" "--cfg=hnm/seed:1 5"
cfg_refused "a comma in a file name" "hnm/link-load takes one value" --cfg=hnm/link-load:a,b.csv
cfg_refused "a misspelled key" "hnm has no setting hnm/sede \(did you mean hnm/seed\?\)" --cfg=hnm/sede:1
cfg_refused "a misspelled key" "hnm has no setting hnm/link-laod \(did you mean hnm/link-load\?\)" \
  --cfg=hnm/link-laod:l.csv
cfg_refused "a misspelled key, second setting" "hnm has no setting hnm/verbos \(did you mean hnm/verbose\?\)" \
  --cfg=smpi/wtime:0,hnm/verbos:1
cfg_refused "a key without value" "hnm/seed has no value \(--cfg=hnm/seed:VALUE\)" --cfg=hnm/seed
cfg_refused "an empty seed" "hnm/seed takes a whole number from 0 to 18446744073709551615" --cfg=hnm/seed:
cfg_refused "a seed of 2^64" "hnm/seed takes a whole number" --cfg=hnm/seed:18446744073709551616
cfg_refused "a negative seed" "hnm/seed takes a whole number" --cfg=hnm/seed:-1
cfg_refused "an empty link-load" "hnm/link-load takes a file name" --cfg=hnm/link-load:
cfg_refused "a topology without parameters" "hnm/link-topology takes TOPOLOGY:PARAMETERS" \
  --cfg=hnm/link-topology:TORUS
cfg_refused "an unknown topology" "hnm/link-topology takes TOPOLOGY:PARAMETERS" --cfg=hnm/link-topology:RING:8
refuse "the model, after the program" "^hnm-run: '--cfg=hnm/model:fluid' conflicts with --model" \
  "$HNM_RUN" --model graphene "${TWO[@]}" "${P[@]}" --cfg=hnm/model:fluid

# Good values pass (checked by --dry-run: the command line carries them).
for arg in --cfg=hnm/seed:18446744073709551615 --cfg=hnm/seed:0 --cfg=hnm/link-topology:TORUS:2x2x2 \
  --cfg=hnm/verbose:yes,smpi/wtime:0 "--cfg=hnm/fast:no smpi/wtime:0"; do
  out=$("$HNM_RUN" --model graphene --dry-run "${TWO[@]}" "$arg" "${P[@]}" 2>&1)
  check "$arg accepted (got: $(head -c 200 <<<"$out"))" grep -qF -- "$arg" <<<"$out"
done

# Outputs onto inputs: the link-load file is never an input of the run,
# whichever way it is named; the input stays byte-identical (refuse).
cp "$DATA/platforms/two.xml" "$WORK/plat.xml"
cp "$DATA/platforms/two.hosts" "$WORK/plat.hosts"
cp "$FLUID" "$WORK/m.xml"
ln -s plat.xml "$WORK/link.xml"
MINE=(-platform "$WORK/plat.xml" -hostfile "$WORK/plat.hosts" -np 2)
cd "$WORK" || exit 1
refuse "--cfg=hnm/link-load onto the platform" \
  "^hnm-run: --cfg=hnm/link-load: 'plat\.xml' is the platform '[^']*plat\.xml': writing it would destroy it$" \
  "$HNM_RUN" --model graphene "${MINE[@]}" --cfg=hnm/link-load:plat.xml "${P[@]}"
refuse "--cfg=hnm/link-load onto the platform, after the program" "'link\.xml' is the platform" \
  "$HNM_RUN" --model graphene "${MINE[@]}" "${P[@]}" --cfg=hnm/link-load:link.xml
refuse "--cfg=hnm/link-load onto the hostfile" "^hnm-run: --cfg=hnm/link-load: 'plat\.hosts' is the hostfile" \
  "$HNM_RUN" --model graphene "${MINE[@]}" --cfg=hnm/link-load:plat.hosts "${P[@]}"
refuse "--cfg=hnm/link-load onto the model" "^hnm-run: --cfg=hnm/link-load: 'm\.xml' is the model" \
  "$HNM_RUN" --model "$WORK/m.xml:limiter=1.5" "${MINE[@]}" --cfg=hnm/link-load:m.xml "${P[@]}"
refuse "\$HNM_LINK_LOAD onto the platform" "^hnm-run: \\\$HNM_LINK_LOAD: 'plat\.xml' is the platform" \
  env HNM_LINK_LOAD=plat.xml "$HNM_RUN" --model graphene "${MINE[@]}" "${P[@]}"
refuse "\$HNM_LINK_LOAD onto the hostfile" "^hnm-run: \\\$HNM_LINK_LOAD: '[^']*plat\.hosts' is the hostfile" \
  env HNM_LINK_LOAD="$WORK/plat.hosts" "$HNM_RUN" --model graphene "${MINE[@]}" "${P[@]}"
refuse "--link-load onto the hostfile" "^hnm-run: --link-load: 'plat\.hosts' is the hostfile" \
  "$HNM_RUN" --model graphene "${MINE[@]}" --link-load plat.hosts "${P[@]}"
refuse "--link-load onto the program" "^hnm-run: --link-load: '[^']*p2p_timing' is the program" \
  "$HNM_RUN" --model graphene "${MINE[@]}" --link-load "$SIM_BIN/p2p_timing" "${P[@]}"
refuse "--link-load and --cfg=hnm/link-load" "conflicts with --link-load 'a\.csv': give one" \
  "$HNM_RUN" --model graphene "${MINE[@]}" --link-load a.csv --cfg=hnm/link-load:b.csv "${P[@]}"
cd - >/dev/null || exit 1

# A good --cfg=hnm/link-load is written by the run (the check lets it through).
out=$("$HNM_RUN" --model graphene "${TWO[@]}" "${SIMOPTS[@]}" "--cfg=hnm/link-load:$WORK/ll.csv" "${P[@]}" 2>&1)
check "--cfg=hnm/link-load: the run writes the file (got: $(head -c 300 <<<"$out"))" \
  grep -q '^link,role,' "$WORK/ll.csv"
finish
