#!/usr/bin/env bash
# hnm-compare run: its runs die with it, and one CSV has one writer.
#  - SIGKILL of hnm-compare (nothing of it runs to clean up) leaves no run
#    behind: the watchdog (tools/hnm_compare_watch.h) kills every run's
#    process group, grandchildren included, within a few seconds;
#  - a second hnm-compare run on a CSV that a first one is writing refuses
#    with one line (exit 2), and the CSV is unchanged by it.
# The runs are a stand-in hnm-run (--hnm-run): --dry-run succeeds, a run
# starts a grandchild sleep and records its pid, then waits for it.
# Environment: HNM_COMPARE.
source "$(dirname "$0")/../sim/lib.sh"
# The recorded sleeps are killed at exit, whatever happened.
cleanup() {
  for f in "$WORK"/pids/*; do [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null; done
}
at_exit cleanup
cd "$WORK"
mkdir pids
cat > fake-hnm-run <<EOS
#!/bin/sh
for a in "\$@"; do [ "\$a" = --dry-run ] && exit 0; done
sleep 120 &
echo \$! > "$WORK/pids/\$\$"
wait
EOS
chmod +x fake-hnm-run
# alive PIDFILE...: the recorded sleeps still running.
alive() { local n=0; for f in "$WORK"/pids/*; do [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && n=$((n + 1)); done; echo $n; }
# wait_for COUNT: until COUNT runs have started (at most 30 s).
wait_for() { for _ in $(seq 300); do [ "$(ls pids | wc -l)" -ge "$1" ] && return 0; sleep 0.1; done; return 1; }
RUN=(run --hnm-run "$WORK/fake-hnm-run" --np 2,4,6,8 --workers 2 --log-dir logs)

# SIGKILL: no run survives hnm-compare.
"$HNM_COMPARE" "${RUN[@]}" -o kill.csv -- /bin/true > /dev/null 2>&1 &
cmp_pid=$!
wait_for 2
check "SIGKILL: two runs started (got $(ls pids | wc -l))" [ "$(ls pids | wc -l)" -ge 2 ]
check "SIGKILL: their sleeps run (got $(alive))" [ "$(alive)" -ge 2 ]
kill -9 $cmp_pid
wait $cmp_pid 2>/dev/null
for _ in $(seq 50); do [ "$(alive)" -eq 0 ] && break; sleep 0.1; done
check "SIGKILL of hnm-compare: no run left running (got $(alive) of $(ls pids | wc -l))" [ "$(alive)" -eq 0 ]

# The lock: a second run on the same CSV refuses while the first writes it.
rm -f pids/*
"$HNM_COMPARE" "${RUN[@]}" -o lock.csv -- /bin/true > /dev/null 2> first.err &
first=$!
wait_for 2
cp lock.csv before.csv
"$HNM_COMPARE" "${RUN[@]}" -o lock.csv -- /bin/true > second.out 2> second.err
st=$?
check "second run on a locked CSV: exit 2 (got $st)" [ $st -eq 2 ]
check "second run: one line (got $(wc -l < second.err): $(head -c 300 second.err))" [ "$(wc -l < second.err)" -eq 1 ]
check "second run: says the CSV is locked (got: $(head -c 300 second.err))" \
  grep -q "lock.csv': another hnm-compare run is writing it (locked)" second.err
check "second run: the CSV unchanged" cmp -s before.csv lock.csv
check "second run: no run of its own started (got $(ls pids | wc -l))" [ "$(ls pids | wc -l)" -eq 2 ]
kill -TERM $first
wait $first 2>/dev/null
for _ in $(seq 50); do [ "$(alive)" -eq 0 ] && break; sleep 0.1; done
check "SIGTERM of the first: no run left running (got $(alive))" [ "$(alive)" -eq 0 ]
finish
