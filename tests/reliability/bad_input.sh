#!/usr/bin/env bash
# Every bad input (docs/reliability.md) is refused before
# anything runs: exit 2, exactly one line on stderr naming the file (and
# line) or the option, nothing written or removed, no hang (each case under
# a 20 s timeout). Named pipes and devices are given where files are
# expected; none of them is ever opened for a blocking read.
source "$(dirname "$0")/lib.sh"

PLAT=$DATA/platforms/two.xml HOSTS=$DATA/platforms/two.hosts
mkfifo "$IN/fifo" "$IN/fifo.xml"
mkdir "$IN/dir.xml"
: >"$IN/empty.xml"
printf '<?xml version="1.0"?>\n<platform version="4.1">\n  <zone id="z" routing="Full">\n    <host id="n-0" speed="1Gf"/>\n' >"$IN/truncated.xml"
printf 'this is not XML\n' >"$IN/notxml.xml"
: >"$IN/empty.hosts"
printf 'n-0\n \nn-1\n' >"$IN/blank.hosts"
printf 'n-0\n\n\nn-1\n\n' >"$IN/emptylines.hosts"
printf 'n-0\nfoo\n' >"$IN/unknown.hosts"
printf 'n-0:abc\n' >"$IN/colon-abc.hosts"
printf 'n-0:0\n' >"$IN/colon-zero.hosts"
printf 'n-0:-1\n' >"$IN/colon-neg.hosts"
printf 'n-0\r\nn-1\r\n' >"$IN/crlf.hosts"
printf 'n-0:3\nn-1:2\n' >"$IN/five.hosts"
H=(-platform "$PLAT" -hostfile "$HOSTS")

# --- hnm-run: the platform, loaded by SimGrid before smpirun starts ---------
refuse "empty platform" "platform file '.*empty.xml': Parse error at .*empty.xml:1" \
  "$HNM_RUN" -platform "$IN/empty.xml" -hostfile "$HOSTS" "$PROG"
refuse "truncated platform" "platform file '.*truncated.xml': .*truncated.xml:[0-9]+" \
  "$HNM_RUN" -platform "$IN/truncated.xml" -hostfile "$HOSTS" "$PROG"
refuse "non-XML platform" "platform file '.*notxml.xml': Parse error at .*notxml.xml:1" \
  "$HNM_RUN" -platform "$IN/notxml.xml" -hostfile "$HOSTS" "$PROG"
refuse "missing platform" "platform file '/nonexistent.xml': cannot open" \
  "$HNM_RUN" -platform /nonexistent.xml -hostfile "$HOSTS" "$PROG"
refuse "platform is a directory" "platform file .*dir.xml': not a regular file \(a directory\)" \
  "$HNM_RUN" -platform "$IN/dir.xml" -hostfile "$HOSTS" "$PROG"
refuse "platform is a named pipe" "platform file .*fifo.xml': not a regular file \(a named pipe\)" \
  "$HNM_RUN" -platform "$IN/fifo.xml" -hostfile "$HOSTS" "$PROG"
refuse "platform is a device" "platform file '/dev/zero': not a regular file \(a character device\)" \
  "$HNM_RUN" -platform /dev/zero -hostfile "$HOSTS" "$PROG"

# --- hnm-run: the hostfile against the platform's hosts ---------------------
refuse "empty hostfile" "hostfile '.*empty.hosts': no host in it" "$HNM_RUN" -platform "$PLAT" -hostfile "$IN/empty.hosts" "$PROG"
refuse "blank line" "blank.hosts:2: blank in ' '" "$HNM_RUN" -platform "$PLAT" -hostfile "$IN/blank.hosts" "$PROG"
refuse "unknown host" "unknown.hosts:2: host 'foo' is not in the platform" \
  "$HNM_RUN" -platform "$PLAT" -hostfile "$IN/unknown.hosts" "$PROG"
refuse "host:abc" "colon-abc.hosts:1: 'n-0:abc': N in HOST:N must be a whole number" \
  "$HNM_RUN" -platform "$PLAT" -hostfile "$IN/colon-abc.hosts" "$PROG"
refuse "host:0" "colon-zero.hosts:1: 'n-0:0': N in HOST:N" "$HNM_RUN" -platform "$PLAT" -hostfile "$IN/colon-zero.hosts" "$PROG"
refuse "host:-1" "colon-neg.hosts:1: 'n-0:-1': N in HOST:N" "$HNM_RUN" -platform "$PLAT" -hostfile "$IN/colon-neg.hosts" "$PROG"
refuse "DOS line ends" "crlf.hosts:1: carriage return" "$HNM_RUN" -platform "$PLAT" -hostfile "$IN/crlf.hosts" "$PROG"
refuse "hostfile is a named pipe" "hostfile '.*fifo': not a regular file \(a named pipe\)" \
  "$HNM_RUN" -platform "$PLAT" -hostfile "$IN/fifo" "$PROG"
refuse "hostfile is a device" "hostfile '/dev/null': not a regular file \(a character device\)" \
  "$HNM_RUN" -platform "$PLAT" -hostfile /dev/null "$PROG"
refuse "hostfile of the bundled platform with another platform" "default.hosts:1: host 'node-0' is not in the platform" \
  "$HNM_RUN" -platform "$PLAT" -hostfile "$SOURCE_DIR/platforms/default.hosts" "$PROG"

# --- hnm-run: -np --------------------------------------------------------------
for np in -1 abc 2.5 1e3 2147483648 0 ' 2' 2x ''; do
  refuse "-np '$np'" "-np '$np': not a number of processes" "$HNM_RUN" "${H[@]}" -np "$np" "$PROG"
done
# Beyond the hostfile's capacity, ranks wrap around as with smpirun
# (tests/sim/placement.sh checks where they go): a note, not a refusal.
note() { # WHAT REGEX CMD...: exit 0, stdout the smpirun line, one line of note on stderr
  local what=$1 re=$2 out st
  shift 2
  out=$(cd "$RUNDIR" && timeout 20 "$@" 2>"$W.err")
  st=$?
  check "$what: exit 0 (got $st: $(head -c 300 "$W.err"))" [ "$st" -eq 0 ]
  check "$what: the smpirun command on stdout" grep -q "^smpirun " <<<"$out"
  check "$what: one line on stderr (got $(wc -l <"$W.err"))" [ "$(wc -l <"$W.err")" -eq 1 ]
  check "$what: note /$re/ (got: $(head -c 300 "$W.err"))" grep -Eq -- "$re" "$W.err"
  rm -f "$W.err"
}
note "-np 1000 beyond the hostfile" "-np 1000: more ranks than the 2 places of hostfile .*two.hosts: rank i runs on place i mod 2" \
  "$HNM_RUN" "${H[@]}" -np 1000 --dry-run "$PROG"
note "-np 3 beyond the hostfile" "-np 3: more ranks than the 2 places" "$HNM_RUN" "${H[@]}" -np 3 --dry-run "$PROG"
note "-np 6 beyond HOST:N" "-np 6: more ranks than the 5 places.*i mod 5" \
  "$HNM_RUN" -platform "$PLAT" -hostfile "$IN/five.hosts" -np 6 --dry-run "$PROG"
refuse "-np given twice" "-np given twice" "$HNM_RUN" "${H[@]}" -np 2 -np 2 "$PROG"
refuse "-n (smpirun's alias) checked too" "-np 'x'" "$HNM_RUN" "${H[@]}" -n x "$PROG"

# --- hnm-run: options ----------------------------------------------------------
refuse "--model twice" "--model: given twice \('fluid', then 'loggps'\)" \
  "$HNM_RUN" --model fluid "${H[@]}" --model loggps "$PROG"
refuse "--model named pipe" "fifo.xml: model file: not a regular file \(a named pipe\)" \
  "$HNM_RUN" --model "$IN/fifo.xml" "${H[@]}" "$PROG"
refuse "--model device" "/dev/zero: model file: not a regular file" "$HNM_RUN" --model /dev/zero "${H[@]}" "$PROG"

# --- what is accepted (and must be) ------------------------------------------
accept "--dry-run after smpirun's -np is hnm-run's" "^smpirun .*--cfg=hnm/model:graphene .*-np 2 $PROG\$" \
  "$HNM_RUN" "${H[@]}" -np 2 --dry-run "$PROG"
accept "--model after -np" "--cfg=hnm/model:fluid " "$HNM_RUN" -np 2 --model fluid "${H[@]}" --dry-run "$PROG"
accept "options after the program are the program's" "$PROG --dry-run\$" \
  "$HNM_RUN" --dry-run "${H[@]}" "$PROG" --dry-run
accept "empty lines are skipped, as SimGrid does" "emptylines.hosts -np 2 " \
  "$HNM_RUN" -platform "$PLAT" -hostfile "$IN/emptylines.hosts" -np 2 --dry-run "$PROG"
accept "HOST:N places N ranks" "-np 5 " "$HNM_RUN" -platform "$PLAT" -hostfile "$IN/five.hosts" -np 5 --dry-run "$PROG"
accept "a platform without hostfile: one rank per host" "-platform .*two.xml -np 2 " \
  "$HNM_RUN" -platform "$PLAT" -np 2 --dry-run "$PROG"
note "a platform without hostfile: more ranks than hosts wrap around" "-np 3: more ranks than the 2 places of platform" \
  "$HNM_RUN" -platform "$PLAT" -np 3 --dry-run "$PROG"

# --- model files and --model overrides: sanity ranges -------------------------
model() { # FILE SEGMENT-ATTRIBUTES
  printf '<?xml version="1.0"?>\n<hnm-model name="x" version="1">\n  <protocol async="none" detached="none"/>\n  <segments route="any">\n    <segment upto="1420" lat-factor="1" bw-factor="1"/>\n    <segment upto="inf" %s/>\n  </segments>\n</hnm-model>\n' "$2" >"$IN/$1"
}
model send-o-1e300.xml 'lat-factor="1" bw-factor="1" send-o="1e300s"'
model latency-2s.xml 'latency="2s" bw-factor="1"'
model bw-factor-1e7.xml 'lat-factor="1" bw-factor="1e7"'
model bandwidth-1e21.xml 'lat-factor="1" bandwidth="1e21Bps"'
model per-byte-2s.xml 'lat-factor="1" bw-factor="1" recv-per-byte="2s"'
sed 's/upto="1420"/upto="1420.5"/' "$IN/latency-2s.xml" | sed 's/latency="2s"/latency="2us"/' >"$IN/upto-fraction.xml"
refuse "send-o=1e300s" "send-o-1e300.xml:6: .*send-o.*above 1s" "$HNM_RUN" --model "$IN/send-o-1e300.xml" --explain
refuse "latency=2s" "latency-2s.xml:6: .*latency.*above 1s" "$HNM_RUN" --model "$IN/latency-2s.xml" --explain
refuse "recv-per-byte=2s" "per-byte-2s.xml:6: .*recv-per-byte.*above 1s" "$HNM_RUN" --model "$IN/per-byte-2s.xml" --explain
refuse "bw-factor=1e7" "bw-factor-1e7.xml:6: .*bw-factor.*out of range" "$HNM_RUN" --model "$IN/bw-factor-1e7.xml" --explain
refuse "bandwidth=1e21Bps" "bandwidth-1e21.xml:6: .*bandwidth.*above 1e\+20Bps" \
  "$HNM_RUN" --model "$IN/bandwidth-1e21.xml" --explain
refuse "upto=1420.5" "upto-fraction.xml:5: .*upto.*not a whole number of bytes" \
  "$HNM_RUN" --model "$IN/upto-fraction.xml" --explain
refuse "override L=2s" "key 'L'.*above 1s" "$HNM_RUN" --model loggps:L=2s --explain
refuse "override limiter=1e7" "key 'limiter'.*out of range" "$HNM_RUN" --model graphene:limiter=1e7 --explain

# --- hnm-compare: the same checks before a sweep ------------------------------
printf 'n-0\n' >"$IN/one.hosts"
refuse "compare: non-XML platform" "platform notxml: .*Parse error at .*notxml.xml:1" \
  "$HNM_COMPARE" run --platform "$IN/notxml.xml:$HOSTS" --np 2 -o "$RUNDIR/c.csv" -- "$PROG"
refuse "compare: unknown host" "platform two: .*unknown.hosts:2: host 'foo'" \
  "$HNM_COMPARE" run --platform "$PLAT:$IN/unknown.hosts" --np 2 -o "$RUNDIR/c.csv" -- "$PROG"
refuse "compare: platform named pipe" "platform file .*fifo.xml': not a regular file" \
  "$HNM_COMPARE" run --platform "$IN/fifo.xml:$HOSTS" --np 2 -o "$RUNDIR/c.csv" -- "$PROG"

# --- hnm-calibrate run --simulate: hnm-run's checks first ---------------------
refuse "calibrate --simulate: unknown host" "unknown.hosts:2: host 'foo' is not in the platform" \
  "$HNM_CALIBRATE" run --simulate --model graphene -platform "$PLAT" -hostfile "$IN/unknown.hosts" --bench "$PROG" -d "$RUNDIR/d"

# --- hnm-calibrate fit: implausible measurements, the same file twice ---------
{ echo "op,size,start,duration"; for k in 1 10 100 1000 10000; do echo "send,$k,0,1e-5"; done; } >"$IN/p2p.csv"
{ echo "op,size,start,duration"; echo "send,1,0,1e300"; } >"$IN/d1e300.csv"
{ echo "op,size,start,duration"; echo "send,1,0,1e-5"; echo "send,100000000000000000000,0,1e-5"; } >"$IN/s1e20.csv"
{ echo "op,size,start,duration"; echo "send,1,0,inf"; } >"$IN/dinf.csv"
{ echo "size,delay,send,recv,pingpong"; echo "1,0.001,1e-5,1e-5,7200"; } >"$IN/probe7200.csv"
ln -s p2p.csv "$IN/p2p-link.csv"
ln "$IN/p2p.csv" "$IN/p2p-hard.csv"
M=(-o "$RUNDIR/m.xml" --no-plots)
refuse "fit: duration 1e300" "d1e300.csv:2: duration: 1e300 s is above 3600 s" "$HNM_CALIBRATE" fit "$IN/d1e300.csv" "${M[@]}"
refuse "fit: duration inf" "dinf.csv:2: duration:" "$HNM_CALIBRATE" fit "$IN/dinf.csv" "${M[@]}"
refuse "fit: probe pingpong 7200 s" "probe7200.csv:2: pingpong: .*above 3600 s" \
  "$HNM_CALIBRATE" fit "$IN/p2p.csv" "$IN/probe7200.csv" "${M[@]}"
refuse "fit: size 1e20" "s1e20.csv:3: size: .*above 2\^53" "$HNM_CALIBRATE" fit "$IN/s1e20.csv" "${M[@]}"
refuse "fit: the same path twice" "p2p.csv: the same file as .*p2p.csv, given twice" \
  "$HNM_CALIBRATE" fit "$IN/p2p.csv" "$IN/p2p.csv" "${M[@]}"
refuse "fit: a symlink to a file given" "p2p.csv: the same file as .*p2p-link.csv" \
  "$HNM_CALIBRATE" fit "$IN/p2p-link.csv" "$IN/p2p.csv" "${M[@]}"
refuse "fit: a hard link to a file given" "p2p-hard.csv: the same file as .*p2p.csv" \
  "$HNM_CALIBRATE" fit "$IN/p2p.csv" "$IN/p2p-hard.csv" "${M[@]}"
refuse "fit: CSV is a named pipe" "fifo: not a regular file \(a named pipe\)" "$HNM_CALIBRATE" fit "$IN/fifo" "${M[@]}"

# --- hnm-route: --pattern-file -------------------------------------------------
refuse "route: pattern file is a named pipe" "--pattern-file: '.*fifo': not a regular file \(a named pipe\)" \
  "$HNM_ROUTE" --shape 2048 --pattern-file "$IN/fifo"

# --- halo under SMPI: a field larger than memory, refused before allocating ---
if [ -n "${APPS_BIN:-}" ] && [ -x "$APPS_BIN/halo" ]; then
  err=$(cd "$RUNDIR" && timeout 60 "$HNM_RUN" -np 4 --cfg=smpi/simulate-computation:no --log=root.thres:critical \
        "$APPS_BIN/halo" --width 100000 2>&1 >/dev/null)
  st=$?
  check "halo --width 100000 under SMPI: exit 2 (got $st)" [ "$st" -eq 2 ]
  check "halo --width 100000 under SMPI: says why" grep -q "halo: the local field of .* doubles is larger than this machine's memory" <<<"$err"
  check "halo --width 100000 under SMPI: no allocation abort" bash -c '! grep -q "Memory allocation" <<<"$1"' _ "$err"
fi
finish
