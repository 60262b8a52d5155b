#!/usr/bin/env bash
# The access pattern of OSU's osu_latency/osu_bw (tests/reliability/
# osu_style.c: malloc'ed and posix_memalign'ed buffers, sizes 0 to 4 MiB,
# 4 MiB send/recv) runs to completion under hnm-run's DEFAULT options: no
# tcmalloc preload (with SMPI's privatization, the default, the preload
# aborted it: "Attempt to free invalid pointer", exit 134). --tcmalloc
# remains available, and works with privatization off.
source "$(dirname "$0")/lib.sh"
OPTS=(--cfg=smpi/simulate-computation:no --log=root.thres:critical)
out=$(cd "$RUNDIR" && timeout 120 "$HNM_RUN" -np 2 "${OPTS[@]}" "$PROG" 2>"$W/err")
st=$?
check "default options: exit 0 (got $st: $(grep -v '^\[' "$W/err" | head -c 300))" [ "$st" -eq 0 ]
check "default options: reaches 4 MiB" [ "$out" = "osu_style done 4194304" ]
for model in smpi-default fluid loggps; do
  out=$(cd "$RUNDIR" && timeout 120 "$HNM_RUN" --model $model -np 2 "${OPTS[@]}" "$PROG" 2>/dev/null)
  check "$model: reaches 4 MiB" [ "$out" = "osu_style done 4194304" ]
done
out=$(cd "$RUNDIR" && timeout 120 "$HNM_RUN" --tcmalloc -np 2 "${OPTS[@]}" --cfg=smpi/privatization:no "$PROG" 2>/dev/null)
check "--tcmalloc without privatization: reaches 4 MiB" [ "$out" = "osu_style done 4194304" ]
check "--tcmalloc preloads it" grep -q "LD_PRELOAD=[^ ]*libhnm.so:[^ ]*tcmalloc" \
  <<<"$("$HNM_RUN" --tcmalloc -np 2 --dry-run "$PROG")"
finish
