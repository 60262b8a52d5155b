#!/usr/bin/env bash
# hnm-run refuses bad input before anything is simulated: exit status 2, one
# line on stderr naming the file, line and field (or the option), and the
# program never runs (it would print "send ..." lines).
source "$(dirname "$0")/lib.sh"

BAD=$DATA/models
TWO=("-platform" "$DATA/platforms/two.xml" "-hostfile" "$DATA/platforms/two.hosts" "-np" "2")

# expect_refusal WHAT PATTERN HNM-RUN-ARGS...: hnm-run refuses (refuse,
# tests/lib.sh): nothing simulated, nothing on stdout.
expect_refusal() {
  local what=$1 pattern=$2
  shift 2
  refuse "$what" "$pattern" "$HNM_RUN" "$@"
}

P=("$SIM_BIN/p2p_timing" 1000:0:0)
# libhnm.so's boolean flags with a value SimGrid cannot parse (it would throw
# from inside smpimain: a backtrace and exit status 134), before or after
# the program (smpirun takes --cfg= wherever it stands); a good value runs.
for f in hnm/fast hnm/verbose hnm/detached-remedy hnm/unlock-remedy; do
  expect_refusal "--cfg=$f:maybe" "'--cfg=$f:maybe': $f takes yes, no" \
    --model graphene "${TWO[@]}" "--cfg=$f:maybe" "${P[@]}"
  expect_refusal "--cfg=$f: (empty), after the program" "$f takes yes, no" \
    --model graphene "${TWO[@]}" "${P[@]}" "--cfg=$f:"
done
for f in hnm/detached-remedy hnm/unlock-remedy; do
  check "--cfg=$f:off runs" bash -c '"$@" >/dev/null 2>&1' _ \
    "$HNM_RUN" --model graphene "${TWO[@]}" --log=root.thres:critical "--cfg=$f:off" "${P[@]}"
done

expect_refusal "missing model file" "nope\.xml" --model /nonexistent/nope.xml "${TWO[@]}" "${P[@]}"
expect_refusal "unknown model" "unknown model 'hyrbid'" --model hyrbid "${TWO[@]}" "${P[@]}"
expect_refusal "malformed XML" "malformed\.xml:[0-9]+" --model "$BAD/malformed.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "negative latency" "negative-latency\.xml:[0-9]+.*latency" \
  --model "$BAD/negative-latency.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "NaN factor" "nan-factor\.xml:[0-9]+.*bw-factor" --model "$BAD/nan-factor.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "segments not increasing" "non-increasing\.xml:[0-9]+.*upto" \
  --model "$BAD/non-increasing.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "async > detached" "async-gt-detached\.xml:[0-9]+.*async > detached" \
  --model "$BAD/async-gt-detached.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "unknown attribute" "unknown-attribute\.xml:[0-9]+.*colour" \
  --model "$BAD/unknown-attribute.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "receive overheads per route class" "recv-per-route\.xml:[0-9]+.*recv-o" \
  --model "$BAD/recv-per-route.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "negative pack cost" "pack-negative\.xml:7: .*unpack-per-byte" \
  --model "$BAD/pack-negative.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "per-size residual tables out of order" "residuals-table-unsorted\.xml:9: .*'size'" \
  --model "$BAD/residuals-table-unsorted.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "negative per-size residual" "residuals-table-negative\.xml:8: .*'quantiles'" \
  --model "$BAD/residuals-table-negative.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "per-size residual table outside its segment" "residuals-table-outside\.xml:8: .*outside its segment" \
  --model "$BAD/residuals-table-outside.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "NaN pack cost" "pack-nan\.xml:8: .*pack-c0" --model "$BAD/pack-nan.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "missing pack cost" "pack-missing\.xml:9: .*pack-per-block.*missing" \
  --model "$BAD/pack-missing.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "pack cost out of range" "pack-range\.xml:7: .*pack-per-byte.*above" \
  --model "$BAD/pack-range.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "negative per-jump time" "pack-jump-negative\.xml:7: .*unpack-per-jump.*negative" \
  --model "$BAD/pack-jump-negative.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "NaN per-jump time" "pack-jump-nan\.xml:8: .*pack-per-jump.*not a finite" \
  --model "$BAD/pack-jump-nan.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "infinite per-jump time" "pack-jump-inf\.xml:7: .*unpack-per-jump.*not a finite" \
  --model "$BAD/pack-jump-inf.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "per-jump time out of range" "pack-jump-range\.xml:7: .*unpack-per-jump.*above" \
  --model "$BAD/pack-jump-range.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "per-irregular time without a history" "pack-history-missing\.xml:8: .*'history'.*missing" \
  --model "$BAD/pack-history-missing.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "history of 0 runs" "pack-history-zero\.xml:8: .*'history'.*whole number of runs" \
  --model "$BAD/pack-history-zero.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "history of 2.5 runs" "pack-history-fraction\.xml:8: .*'history'.*whole number of runs" \
  --model "$BAD/pack-history-fraction.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "history above 1e9 runs" "pack-history-huge\.xml:8: .*'history'.*whole number of runs" \
  --model "$BAD/pack-history-huge.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "history not a number" "pack-history-word\.xml:8: .*'history'.*not a number" \
  --model "$BAD/pack-history-word.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "negative per-element time" "pack-element-negative\.xml:8: .*unpack-per-element.*negative" \
  --model "$BAD/pack-element-negative.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "per-irregular time out of range" "pack-irregular-range\.xml:8: .*pack-per-irregular.*above" \
  --model "$BAD/pack-irregular-range.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "NaN per-irregular time" "pack-irregular-nan\.xml:8: .*pack-per-irregular.*not a finite" \
  --model "$BAD/pack-irregular-nan.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "pack style not given in full" "pack-missing-class\.xml:6: .*class" \
  --model "$BAD/pack-missing-class.xml" "${TWO[@]}" "${P[@]}"
expect_refusal "inline pack style unknown" "key 'pack'" --model "graphene:pack=fast" "${TWO[@]}" "${P[@]}"
expect_refusal "inline value that does not parse" "key 'L'" --model "loggps:L=fast" "${TWO[@]}" "${P[@]}"
expect_refusal "inline key unknown" "key 'latency'" --model "graphene:latency=5us" "${TWO[@]}" "${P[@]}"
expect_refusal "inline async > detached" "async > detached" --model "graphene:async=1MiB" "${TWO[@]}" "${P[@]}"
expect_refusal "missing platform" "platform file .*cannot open" --model fluid -platform /nonexistent.xml \
  -hostfile "$DATA/platforms/two.hosts" -np 2 "${P[@]}"
expect_refusal "owned SimGrid option" "conflicts with --model" --model fluid "${TWO[@]}" \
  --cfg=smpi/bw-factor:0:1 "${P[@]}"
expect_refusal "no program" "no program" --model fluid "${TWO[@]}"
expect_refusal "unknown hnm-run option" "--modle: unknown" --modle fluid "${TWO[@]}" "${P[@]}"

# And the same model, when good, does run (the refusals above are not a broken setup).
out=$("$HNM_RUN" --model fluid "${TWO[@]}" "${SIMOPTS[@]}" "${P[@]}" 2>/dev/null)
check "a good model runs the program" grep -q '^send 1000' <<<"$out"
finish
