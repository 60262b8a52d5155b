#!/usr/bin/env bash
# hnm-run's command line: help, version, --explain, --dry-run (how smpirun
# is called), and libhnm refusing to run without a model.
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
check "dry-run sets HNM_MODEL" grep -q '^HNM_MODEL=fluid ' <<<"$out"
check "dry-run preloads the plugin" grep -q "'env LD_PRELOAD=[^ ]*libhnm.so[^ ]*'" <<<"$out"
check "dry-run adds the default platform" grep -q -- '-platform [^ ]*platforms/default.xml' <<<"$out"
out=$("$HNM_RUN" --model fluid --dry-run -wrapper "valgrind -q" -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "user wrapper folded" grep -q "'env LD_PRELOAD=[^ ]*libhnm.so[^ ]* valgrind -q'" <<<"$out"
check "user wrapper not passed twice" [ "$(grep -o -- '-wrapper' <<<"$out" | wc -l)" -eq 1 ]

out2=$("$HNM_RUN" --model fluid --dry-run --no-tcmalloc -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "--no-tcmalloc preloads the plugin only" grep -q "'env LD_PRELOAD=[^ :]*libhnm.so'" <<<"$out2"
check "fluid lifts the limiters: hnm-run adds network/optim:Full" grep -q -- "--cfg=network/optim:Full" <<<"$out2"
out3=$("$HNM_RUN" --model graphene --dry-run -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "graphene keeps SimGrid's network/optim" bash -c '! grep -q -- "network/optim" <<<"$1"' _ "$out3"
check "no tcmalloc by default" grep -q "'env LD_PRELOAD=[^ :]*libhnm.so'" <<<"$out3"
out4=$("$HNM_RUN" --model smpi-default --dry-run -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "smpi-default keeps SimGrid's network/optim" bash -c '! grep -q -- "network/optim" <<<"$1"' _ "$out4"
out5=$("$HNM_RUN" --model loggps --dry-run --cfg=network/optim:Lazy -np 2 "$SIM_BIN/p2p_timing" 1:0:0)
check "a user's network/optim wins" [ "$(grep -o -- 'network/optim:[A-Za-z]*' <<<"$out5")" = "network/optim:Lazy" ]
check "hnm-run options after smpirun's" grep -q '^HNM_MODEL=fluid ' <<<"$("$HNM_RUN" -np 2 --model fluid --dry-run "$SIM_BIN/p2p_timing")"

# The plugin on its own, without a model: refuses with exit 2.
plugin=$(sed -n "s/.*LD_PRELOAD=\([^ ']*\).*/\1/p" <<<"$out")
set +e
err=$(env -u HNM_MODEL smpirun -wrapper "env LD_PRELOAD=$plugin" -platform "$DATA/platforms/two.xml" \
  -hostfile "$DATA/platforms/two.hosts" -np 2 "${SIMOPTS[@]}" "$SIM_BIN/p2p_timing" 1:0:0 2>&1)
status=$?
set -e
check "libhnm without HNM_MODEL fails" [ "$status" -ne 0 ]
check "libhnm says why" grep -q 'HNM_MODEL is not set' <<<"$err"
check "nothing simulated" bash -c "! grep -q '^send' <<<\"\$1\"" _ "$err"
finish
