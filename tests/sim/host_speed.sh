#!/usr/bin/env bash
# Computation counted at the platform's speed (tools/hnm_speed.h). SMPI turns
# t seconds of CPU measured between MPI calls into t x smpi/host-speed flop,
# run at the host's speed s: simulated = t x smpi/host-speed / s. hnm-run sets
# smpi/host-speed to the user's --cfg, else the platform's <config>, else the
# speed of the hosts that run ranks (the fastest of them).
#  - Closed forms (exact, 1e-9), with smpi/simulate-computation:no, where
#    only the program's own smpi_execute*() calls count: smpi_execute_flops(F)
#    takes F / s whatever smpi/host-speed; smpi_execute(t) takes
#    t x smpi/host-speed / s. Plain smpirun's 20000f is checked too.
#  - Measured: a compute-only program's simulated time equals its own thread
#    CPU time x (smpi/host-speed / s) within 2% + 2 ms (the few microseconds
#    between SMPI's measurement and the program's, and timer resolution).
source "$(dirname "$0")/lib.sh"

tmp=$WORK
PLAT=$SOURCE_DIR/platforms/default.xml HOSTS=$SOURCE_DIR/platforms/default.hosts
# Two hosts of different speeds, and a cluster whose <config> names the
# speed of the machine running the simulation (as hnm-calibrate machine does).
full_zone "$tmp/hetero.xml" <<'EOF'
<host id="slow" speed="1Gf"/>
<host id="fast" speed="2Gf"/>
<link id="l" bandwidth="1GBps" latency="1us"/>
<route src="slow" dst="fast"><link_ctn id="l"/></route>
EOF
printf 'slow\nfast\n' >"$tmp/slow-fast.hosts"
cat >"$tmp/config.xml" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <config><prop id="smpi/host-speed" value="500Mf"/></config>
  <cluster id="c" prefix="c-" suffix="" radical="0-1" speed="2Gf" bw="1GBps" lat="1us"/>
</platform>
EOF
printf 'c-0\nc-1\n' >"$tmp/config.hosts"
C=$SIM_BIN/compute

# ---- closed forms --------------------------------------------------------
val() { awk -v r="$1" '$2 == r { print $3 }'; }   # the SIM column of rank $1
# Each line: what is checked | the rank | its simulated seconds | hnm's
# arguments (model, platform, hostfile, ranks, options, program, its
# arguments; no white space inside one). On hetero.xml the fastest host of
# the run is the reference.
while IFS='|' read -r what rank want args; do
  # shellcheck disable=SC2086
  out=$(hnm $args </dev/null)
  check_close "$what" "$(val "$rank" <<<"$out")" "$want" 1e-9
done <<EOF
1e9 flop on a 1Gf host|0|1|graphene $PLAT $HOSTS 1 $C flops 1e9
0.25 s on the 1Gf host of the bundled platform: 0.25 s|0|0.25|graphene $PLAT $HOSTS 1 $C seconds 0.25
--cfg=smpi/host-speed:2Gf wins: 0.25 s x 2|0|0.5|graphene $PLAT $HOSTS 1 --cfg=smpi/host-speed:2Gf $C seconds 0.25
smpi_execute_flops ignores smpi/host-speed|0|1|graphene $PLAT $HOSTS 1 --cfg=smpi/host-speed:2Gf $C flops 1e9
the user's --cfg after the program wins too (smpirun takes it)|0|1|graphene $PLAT $HOSTS 1 $C seconds 0.25 --cfg=smpi/host-speed:4Gf
smpi-default counts computation like every model|0|0.25|smpi-default $PLAT $HOSTS 1 $C seconds 0.25
hetero: 0.25 s on the 1Gf host, reference 2Gf|0|0.5|fluid $tmp/hetero.xml $tmp/slow-fast.hosts 2 $C seconds 0.25
hetero: 0.25 s on the 2Gf host|1|0.25|fluid $tmp/hetero.xml $tmp/slow-fast.hosts 2 $C seconds 0.25
hetero: 3e9 flop at 1Gf|0|3|fluid $tmp/hetero.xml $tmp/slow-fast.hosts 2 $C flops 3e9
hetero: 3e9 flop at 2Gf|1|1.5|fluid $tmp/hetero.xml $tmp/slow-fast.hosts 2 $C flops 3e9
hetero, -np 1: only the 1Gf host runs a rank, it is the reference|0|0.25|fluid $tmp/hetero.xml $tmp/slow-fast.hosts 1 $C seconds 0.25
<config> smpi/host-speed 500Mf on 2Gf hosts: 1 s counts 0.25 s|1|0.25|fluid $tmp/config.xml $tmp/config.hosts 2 $C seconds 1
the user's --cfg wins over the platform's <config>|1|1|fluid $tmp/config.xml $tmp/config.hosts 2 --cfg=smpi/host-speed:2Gf $C seconds 1
EOF
# Plain smpirun, and smpi-default told SimGrid's default speed: the same run.
out=$(plain "$PLAT" "$HOSTS" 1 "$C" seconds 0.25)
check_close "plain smpirun: SimGrid 3.32's 20000f" "$(val 0 <<<"$out")" "$(calc "0.25 * 20000 / 1e9")" 1e-9
ref=$out
out=$(hnm smpi-default "$PLAT" "$HOSTS" 1 --cfg=smpi/host-speed:20000f "$C" seconds 0.25)
check "smpi-default with 20000f is plain smpirun, digit for digit" [ "$out" = "$ref" ]

# ---- what hnm-run says and passes ------------------------------------------
ex=$("$HNM_RUN" --model graphene --explain)
check "--explain: bundled platform, factor 1" grep -q 'hosts of 1e+09 flop/s: a measured second counts 1 s (factor 1)' <<<"$ex"
ex=$("$HNM_RUN" --explain -platform "$tmp/hetero.xml" -hostfile "$tmp/slow-fast.hosts" -np 2)
check "--explain: heterogeneous, factor 1 to 2" grep -q '(factor 1 to 2)' <<<"$ex"
ex=$("$HNM_RUN" --explain -platform "$tmp/config.xml" --cfg=smpi/simulate-computation:no)
check "--explain: the <config> value, factor 0.25" grep -q "platform's <config>.*" <<<"$ex"
check "--explain: factor 0.25" grep -q '(factor 0.25)' <<<"$ex"
check "--explain: says when computation is not simulated" grep -q 'simulate-computation:no' <<<"$ex"
dry=$("$HNM_RUN" --dry-run -np 2 "$C" spin 1)
check "--dry-run: smpi/host-speed of the bundled hosts" grep -q -- '--cfg=smpi/host-speed:1000000000f ' <<<"$dry"
dry=$("$HNM_RUN" --dry-run -np 2 --cfg=smpi/host-speed:3Gf "$C" spin 1)
check "--dry-run: the user's value alone" [ "$(grep -o 'smpi/host-speed:[^ ]*' <<<"$dry")" = "smpi/host-speed:3Gf" ]

# ---- measured --------------------------------------------------------------
MEAS=(--cfg=smpi/wtime:0 --cfg=smpi/privatization:no --log=root.thres:warning)
measured() { # WHAT OUTPUT RANK FACTOR
  local cpu sim
  read -r _ _ cpu sim < <(awk -v r="$3" '$2 == r' <<<"$2")
  if awk -v c="$cpu" -v s="$sim" -v f="$4" 'BEGIN { e = c * f; d = s - e; if (d < 0) d = -d;
        exit !(c > 0.1 && d <= 0.02 * e + 0.002) }'; then
    PASSED=$((PASSED + 1))
  else
    FAILED=$((FAILED + 1))
    printf 'FAIL %s: simulated %s s, measured CPU %s s x %s\n' "$1" "$sim" "$cpu" "$4"
  fi
}
out=$("$HNM_RUN" -np 1 "${MEAS[@]}" "$C" spin 0.2)
measured "bundled platform: simulated = measured CPU" "$out" 0 1
out=$("$HNM_RUN" -np 1 "${MEAS[@]}" --cfg=smpi/host-speed:2Gf "$C" spin 0.2)
measured "--cfg=smpi/host-speed:2Gf on 1Gf: simulated = 2 x measured" "$out" 0 2
out=$("$HNM_RUN" --model fluid -platform "$tmp/hetero.xml" -hostfile "$tmp/slow-fast.hosts" -np 2 "${MEAS[@]}" \
  "$C" spin 0.15)
measured "hetero, 1Gf host: 2 x measured" "$out" 0 2
measured "hetero, 2Gf host: 1 x measured" "$out" 1 1
finish
