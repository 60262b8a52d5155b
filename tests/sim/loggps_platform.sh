#!/usr/bin/env bash
# --model loggps:platform takes L and G from each message's route (L = the
# sum of its links' declared latencies, g = G = 1 / its narrowest link's
# bandwidth); the other parameters stay the model's. Checked on a 3-host
# platform written here, whose two routes differ:
#   n-0 -> n-1: link a (10 us, 1 GB/s)                   L = 10 us, B = 1e9 B/s
#   n-0 -> n-2: links a, b (10 us + 5 us, 100 MB/s)      L = 15 us, B = 1e8 B/s
# with the closed forms of tests/sim/loggps_closed_form.sh (Degomme et al.
# 2013, Figure 1): eager (k <= S) MPI_Send = T1 = o + k Os, MPI_Recv =
# max(T1 + T2 - (tr - ts), 0) + T3 with T2 = L + k G, T3 = o + k Or;
# rendez-vous both ends at max(ts, tr) + 6o + 2L + k(Os + Or) + T2.
# And the one-line note when a model's absolute values do not fit the
# platform (the bundled loggps: 30 us, 125 MB/s), absent with :platform;
# for a fitted segment table, its fastest rate against the route's.
source "$(dirname "$0")/lib.sh"
W=$WORK
full_zone "$W/p.xml" <<'EOF'
<host id="n-0" speed="1Gf"/>
<host id="n-1" speed="1Gf"/>
<host id="n-2" speed="1Gf"/>
<link id="a" bandwidth="1GBps" latency="10us"/>
<link id="b" bandwidth="100MBps" latency="5us"/>
<route src="n-0" dst="n-1"><link_ctn id="a"/></route>
<route src="n-0" dst="n-2"><link_ctn id="a"/><link_ctn id="b"/></route>
<route src="n-1" dst="n-2"><link_ctn id="b"/></route>
EOF
printf 'n-0\nn-1\n' >"$W/01.hosts"
printf 'n-0\nn-2\n' >"$W/02.hosts"
o=2e-6 Os=0.3e-9 Or=0.5e-9 S=65536
MODEL="loggps:platform,o=2us,Os=0.3ns,Or=0.5ns,S=64KiB"
SC=()
for k in 1 1000 65536 65537 1048576; do SC+=("$k:0.001:0" "$k:0:0.001" "$k:0:0.00001"); done

for route in "01 10e-6 1e9" "02 15e-6 1e8"; do
  read -r hosts L B <<<"$route"
  G=$(calc "1 / $B")
  out=$(hnm "$MODEL" "$W/p.xml" "$W/$hosts.hosts" 2 "$SIM_BIN/p2p_timing" "${SC[@]}" 2>"$W/err")
  check "route $hosts: no platform note with :platform ($(cat "$W/err"))" [ ! -s "$W/err" ]
  # s = 0: T2 = L + k G for every k.
  loggps_check "route $hosts " "$out" "$L" "$o" "$G" "$G" 0 "$S" "$Os" "$Or"
done

# The bundled loggps keeps its own L and G: one line of note.
hnm loggps "$W/p.xml" "$W/01.hosts" 2 "$SIM_BIN/p2p_timing" 1:0:0 >/dev/null 2>"$W/err"
check "bundled loggps (1 Gb/s) on a 1 GB/s route: one line ($(cat "$W/err"))" [ "$(wc -l <"$W/err")" -eq 1 ]
check "bundled loggps: the note names the route and loggps:platform" \
  grep -Eq "^hnm: note: model 'loggps' has its own L = .* not this platform's \(route n-[01] -> n-[01]: 1e-05 s, 1e\+09 bytes/s\); --model loggps:platform takes L and G from each route$" "$W/err"
# Within a factor of 2 (route n-0 -> n-2: 15 us, 100 MB/s, against 1/G =
# 1/8 ns = 125 MB/s): no note. (The bundled values are read from its file.)
ex=$("$HNM_RUN" --model loggps --explain)
lgL=$(grep -o ' L=[^ ]*' <<<"$ex" | cut -d= -f2) lgG=$(grep -o ' G=[^ ]*' <<<"$ex" | cut -d= -f2)
echo "bundled loggps: L = $lgL s, G = $lgG s/B"
if awk -v l="$lgL" -v g="$lgG" 'BEGIN { b = 1 / g; exit !(l <= 30e-6 && l >= 7.5e-6 && b <= 2e8 && b >= 5e7) }'; then
  hnm loggps "$W/p.xml" "$W/02.hosts" 2 "$SIM_BIN/p2p_timing" 1:0:0 >/dev/null 2>"$W/err"
  check "bundled loggps on a route within 2x: no note ($(cat "$W/err"))" [ ! -s "$W/err" ]
fi
# A fitted segment table (absolute bandwidths 4 GB/s up to 4 KiB, 1 GB/s
# above): the note compares the route with the table's fastest rate, so a
# platform whose links carry exactly that rate (as hnm-calibrate machine
# writes them, so that they never cap the model) gets none, though the
# largest messages go 4 times slower; a route more than 2x off either way
# gets one line naming the fastest rate. 2x exactly is not "far".
cat >"$W/fit.xml" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE hnm-model SYSTEM "hnm-model.dtd">
<hnm-model name="fitted" version="1">
  <protocol async="none" detached="256"/>
  <sharing contention="maxmin" crosstraffic="off"/>
  <segments route="any">
    <segment upto="4096" latency="1us" bandwidth="4GBps"/>
    <segment upto="inf" latency="5us" bandwidth="1GBps"/>
  </segments>
</hnm-model>
EOF
for case in "4GBps:none" "2GBps:none" "8GBps:none" "1999999999Bps:note:2e\\+09" "8000000001Bps:note:8e\\+09" \
            "100MBps:note:1e\\+08"; do
  IFS=: read -r bw want got <<<"$case"
  sed "s/bandwidth=\"1GBps\" latency=\"10us\"/bandwidth=\"$bw\" latency=\"10us\"/" "$W/p.xml" >"$W/pf.xml"
  hnm "$W/fit.xml" "$W/pf.xml" "$W/01.hosts" 2 "$SIM_BIN/p2p_timing" 1:0:0 >/dev/null 2>"$W/err"
  # (A route slower than 4 GB/s also gets the warning that the model's rate
  # exceeds a link: another line, another check.)
  grep '^hnm: note:' "$W/err" >"$W/note"
  if [ "$want" = none ]; then
    check "fitted table (fastest 4 GB/s) on a $bw route: no note ($(cat "$W/err"))" [ ! -s "$W/note" ]
  else
    check "fitted table on a $bw route: one note ($(cat "$W/err"))" [ "$(wc -l <"$W/note")" -eq 1 ]
    check "fitted table on a $bw route: the fastest rate and the route's ($(cat "$W/note"))" grep -Eq \
      "^hnm: note: model 'fitted' moves its fastest messages at 4e\+09 bytes/s of its own \(absolute, fitted elsewhere\), and this platform's route n-[01] -> n-[01] has $got bytes/s: " "$W/note"
  fi
done

# graphene is made of factors: no note.
hnm graphene "$W/p.xml" "$W/02.hosts" 2 "$SIM_BIN/p2p_timing" 1:0:0 >/dev/null 2>"$W/err"
check "graphene: no note ($(cat "$W/err"))" [ ! -s "$W/err" ]

# The spec: platform is a loggps word, exclusive with L, g, G; --explain says it.
out=$("$HNM_RUN" --model "$MODEL" --explain)
check "--explain: L and G from each route" grep -q "platform: L, g and G of each message from its route" <<<"$out"
check "--explain: ranks on one host share its port" grep -q "ranks on one host share its port" <<<"$out"
for bad in "loggps:platform,L=5us:key 'L': comes from each route" "loggps:platform,G=1ns:key 'G': comes from each route" \
           "graphene:platform:key 'platform': only applies to a loggps model" "loggps:platform,platform:key 'platform': given twice"; do
  spec=${bad%%:key*} want=${bad#"$spec":}
  refuse "--model $spec" "$(ere_quote "$want")" "$HNM_RUN" --model "$spec" --explain
done
finish
