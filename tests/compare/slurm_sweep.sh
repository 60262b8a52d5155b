#!/usr/bin/env bash
# hnm-compare slurm --submit / --attach against a real Slurm (the private
# single-node one of slurm_fixture.sh; skipped when it cannot start):
# - a 12-point sweep in 3 array tasks, watched and merged, gives the
#   single-process sweep's rows (all columns but wall time and memory);
# - two sweeps submitted at once into two CSVs do not mix;
# - an array element scancel'led is reported CANCELLED with its missing grid
#   indices, and the rerun submits that task alone;
# - hnm-calibrate run and machine with --mpirun "srun -n 2" (Open MPI
#   through Slurm's PMIx) give a model that hnm-run accepts;
# - Ctrl-C while watching: cancelled (--cancel-on-interrupt, or answered y
#   on a terminal) or left running, what finished merged either way;
# - a task over its time limit is reported TIMEOUT with its index (Slurm's
#   smallest limit is a minute and slurmctld looks every 30 s: that job is
#   submitted first and watched last).
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/lib.sh"  # cd $WORK
source "$HERE/slurm_fixture.sh" || exit 1
slurm_start  # or skip (exit 77): nothing below may reach another Slurm

# The timeout job: a fake hnm-run that sleeps for the run of --bytes 7
# (grid index 1, task 1 of 2), the real one for the other.
cat >slow-run <<EOF
#!/bin/bash
case "\$*" in *"--bytes 7"*) exec sleep 600 ;; esac
exec "$HNM_RUN" "\$@"
EOF
chmod +x slow-run
T=(--model fluid --np 2 --platform "$FLAT" "${SIMS[@]}" --args "--bytes 10" --args "--bytes 7" --hnm-run "$WORK/slow-run")
tjob=$("$HNM_COMPARE" slurm --submit --no-wait --tasks 2 --time 1 --script t.sh "${T[@]}" -o t/t.csv -- "$PROG" 2>t.err)
st=$?
check_eq "timeout job: --no-wait exit status" "$st" 0
check "timeout job: --no-wait prints the job id alone ($tjob)" grep -qx '[0-9][0-9]*' <<<"$tjob"
check "the script has the time limit" grep -qx '#SBATCH --time=1' t.sh

# The 12-point sweep, single-process, then in 3 array tasks.
G=(--model fluid --model loggps --np 2,4,8 --platform "$FLAT" "${SIMS[@]}" --args "--bytes 10" --args "--bytes 5000" --workers 1)
"$HNM_COMPARE" run "${G[@]}" -o single.csv -- "$PROG" 2>/dev/null
check_eq "single sweep: rows" "$(rows single.csv)" 12
cols() { (head -n 1 "$1"; tail -n +2 "$1" | sort -t, -k1,1n) | cut -d, -f1-9,12,13; }
"$HNM_COMPARE" slurm --submit --poll 0.3 --tasks 3 --script a.sh "${G[@]}" -o a/a.csv -- "$PROG" >a.out 2>a.err
st=$?
check_eq "12-point sweep: exit status" "$st" 0
check "12-point sweep: job id on stdout" grep -qx '[0-9][0-9]*' a.out
check "12-point sweep: 3 tasks submitted" grep -q "3 of 3 tasks submitted (0-2), 12 runs to do" a.err
check_eq "12-point sweep: the script named once" "$(grep -c '^hnm-compare: a.sh: 12 runs in 3 array tasks; per-task CSVs a/a.task-I.csv$' a.err)" 1
check "12-point sweep: merged" grep -q 'merge: 12 runs (0 not ok) from 3 files into a/a.csv' a.err
check "12-point sweep: summary" grep -q "job $(cat a.out): 0 failed tasks; 12 of 12 runs ok in a/a.csv" a.err
check "12-point sweep: rows equal the single sweep's" [ "$(cols a/a.csv)" = "$(cols single.csv)" ]
check "12-point sweep: per-task logs" [ -f a/a.task-0.log -a -f a/a.task-2.log ]
check "12-point sweep: wall time and memory recorded" \
  awk -F, 'NR > 1 && !($10 > 0 && $11 > 0) { exit 1 }' a/a.csv
# Re-running it submits nothing.
"$HNM_COMPARE" slurm --submit --poll 0.3 --tasks 3 --script a.sh "${G[@]}" -o a/a.csv -- "$PROG" >a2.out 2>a2.err
st=$?
check_eq "rerun of a complete sweep: exit status" "$st" 0
check "rerun of a complete sweep: nothing submitted" grep -q 'all 12 runs have an ok row: nothing to submit' a2.err
check_eq "rerun of a complete sweep: no job id" "$(cat a2.out)" ""

# Two sweeps at once into two CSVs (B: another argument set, 4 tasks).
B=(--model fluid --np 2,4 --platform "$FLAT" "${SIMS[@]}" --args "--bytes 64" --args "--bytes 128" --workers 1)
"$HNM_COMPARE" run "${B[@]}" -o singleb.csv -- "$PROG" 2>/dev/null
ja=$("$HNM_COMPARE" slurm --submit --no-wait --tasks 3 --script c.sh "${G[@]}" -o c.csv -- "$PROG" 2>/dev/null)
jb=$("$HNM_COMPARE" slurm --submit --no-wait --tasks 4 --script b.sh "${B[@]}" -o b.csv -- "$PROG" 2>/dev/null)
"$HNM_COMPARE" slurm --attach "$ja" --poll 0.3 --tasks 3 "${G[@]}" -o c.csv -- "$PROG" 2>c.err &
pa=$!
"$HNM_COMPARE" slurm --attach "$jb" --poll 0.3 --tasks 4 "${B[@]}" -o b.csv -- "$PROG" 2>b.err
stb=$?
wait $pa
sta=$?
check_eq "two at once: exit statuses" "$sta $stb" "0 0"
check "two at once: two jobs ($ja, $jb)" [ -n "$ja" -a -n "$jb" -a "$ja" != "$jb" ]
check "two at once: A's rows are the 12-point sweep's" [ "$(cols c.csv)" = "$(cols single.csv)" ]
check "two at once: B's rows are its own single sweep's" [ "$(cols b.csv)" = "$(cols singleb.csv)" ]

# scancel of one element while hnm-compare watches: reported, its runs
# missing, the rerun submits that task alone. --throttle 1: one task at a
# time, so element 2 is still pending when cancelled (Slurm then keeps no
# record of it: it is named as gone from the queue).
"$HNM_COMPARE" slurm --submit --poll 0.3 --throttle 1 --tasks 3 --script d.sh "${G[@]}" -o d.csv -- "$PROG" >d.out 2>d.err &
pd=$!
for i in $(seq 100); do grep -q pending d.err && break; sleep 0.1; done
jc=$(cat d.out)
scancel "${jc}_2"
wait $pd
st=$?
check "throttle: --array=0-2%1 in the script" grep -qx '#SBATCH --array=0-2%1' d.sh
check_eq "cancelled element: exit status" "$st" 1
check "cancelled element: named, with its log" \
  grep -q "task 2 (job ${jc}_2): CANCELLED while pending (no longer in Slurm's queue), log d.task-2.log" d.err
check "cancelled element: 4 runs missing" grep -q '4 of 12 runs have no ok row' d.err
check "cancelled element: missing grid indices 2 5 8 11" grep -q 'missing grid indices: 2 5 8 11$' d.err
check "cancelled element: summary" grep -q "job $jc: 1 failed tasks; 8 of 12 runs ok in d.csv" d.err
check_eq "cancelled element: the others merged" "$(rows d.csv)" 8
"$HNM_COMPARE" slurm --attach "$jc" --poll 0.3 --tasks 3 "${G[@]}" -o d.csv -- "$PROG" 2>d1.err
st=$?
check_eq "--attach to the finished job: exit status" "$st" 1
check "--attach to the finished job: the same missing indices" grep -q 'missing grid indices: 2 5 8 11$' d1.err
"$HNM_COMPARE" slurm --submit --poll 0.3 --tasks 3 --script d.sh "${G[@]}" -o d.csv -- "$PROG" >d2.out 2>d2.err
st=$?
check_eq "resubmission: exit status" "$st" 0
check "resubmission: task 2 alone" grep -q '1 of 3 tasks submitted (2), 4 runs to do' d2.err
check "resubmission: job array of element 2 only" \
  [ "$(squeue --states=all -r -h -j "$(cat d2.out)" -o %K)" = 2 ]
check "resubmission: rows equal the single sweep's" [ "$(cols d.csv)" = "$(cols single.csv)" ]

# Ctrl-C (SIGINT) while watching. With --cancel-on-interrupt the job is
# cancelled; task 0 (index 0) finished and is merged, task 1 (sleeping) is
# named CANCELLED. Without it (and no terminal to ask on) the job is left
# running and named for --attach.
"$HNM_COMPARE" slurm --submit --poll 0.3 --cancel-on-interrupt --tasks 2 --script e.sh "${T[@]}" -o e.csv -- "$PROG" >e.out 2>e.err &
pe=$!
for i in $(seq 300); do grep -q '1 running, 1 done' e.err && break; sleep 0.1; done
kill -INT $pe
wait $pe
st=$?
je=$(cat e.out)
check_eq "interrupt, --cancel-on-interrupt: exit status" "$st" 1
check "interrupt, --cancel-on-interrupt: task 1 CANCELLED" grep -Eq "task 1 \(job ${je}_1\): CANCELLED, exit code [0-9]+:[0-9]+, log e.task-1.log" e.err
check "interrupt, --cancel-on-interrupt: summary" grep -q "job $je: 1 failed tasks (interrupted); 1 of 2 runs ok in e.csv" e.err
check "interrupt, --cancel-on-interrupt: the finished run merged" [ "$(rows e.csv)" = 1 -a "$(field e.csv 0 status)" = ok ]
check_eq "interrupt, --cancel-on-interrupt: Slurm's states" \
  "$(squeue --states=all -r -h -j "$je" -o '%K %T' | sort | tr '\n' ' ')" "0 COMPLETED 1 CANCELLED "
"$HNM_COMPARE" slurm --submit --poll 0.3 --tasks 2 --script f.sh "${T[@]}" -o f.csv -- "$PROG" >f.out 2>f.err </dev/null &
pf=$!
for i in $(seq 300); do grep -q '1 running, 1 done' f.err && break; sleep 0.1; done
kill -INT $pf
wait $pf
st=$?
jf=$(cat f.out)
check_eq "interrupt, no terminal: exit status" "$st" 1
check "interrupt, no terminal: job left running, named for --attach" grep -q "job $jf left running; watch it again with the same command and --attach $jf" f.err
check_eq "interrupt, no terminal: task 1 still running" "$(squeue -r -h -j "$jf" -t RUNNING -o %K)" 1
check "interrupt, no terminal: the finished run merged" [ "$(rows f.csv)" = 1 ]
scancel "$jf"

# On a terminal (script(1) gives the command one): Ctrl-C asks whether to
# scancel; answered y, the job is cancelled and what finished is merged.
# script runs the command with $SHELL -c; "exec" makes hnm-compare that
# process, whatever the shell: dash, unlike bash, does not exec a lone
# command, and dies of the terminal's SIGINT itself (status 130).
if command -v script >/dev/null; then
  printf '%q ' "$HNM_COMPARE" slurm --submit --poll 0.3 --tasks 2 --script g.sh "${T[@]}" -o g.csv -- "$PROG" >g.cmd
  { for i in $(seq 300); do grep -q '1 running, 1 done' g.log 2>/dev/null && break; sleep 0.1; done
    printf '\003'  # the terminal's interrupt character: SIGINT
    for i in $(seq 50); do grep -q 'cancel job' g.log && break; sleep 0.1; done
    printf 'y\n'
    for i in $(seq 150); do grep -q 'runs ok in g.csv' g.log && break; sleep 0.1; done; } |
    SHELL=/bin/sh script -qefc "exec $(cat g.cmd)" /dev/null >g.log 2>&1
  st=$?
  jg=$(tr -d '\r' <g.log | grep -x '[0-9][0-9]*')
  check_eq "interrupt on a terminal: exit status" "$st" 1
  check "interrupt on a terminal: the question" grep -q "interrupted: cancel job $jg (scancel)? \[y/N\] y" g.log
  check "interrupt on a terminal: task 1 CANCELLED" grep -q "task 1 (job ${jg}_1): CANCELLED" g.log
  check_eq "interrupt on a terminal: Slurm's states" \
    "$(squeue --states=all -r -h -j "$jg" -o '%K %T' | sort | tr '\n' ' ')" "0 COMPLETED 1 CANCELLED "
  check "interrupt on a terminal: the finished run merged" [ "$(rows g.csv)" = 1 ]
else
  echo "SKIP part: no script(1) to give hnm-compare a terminal: the question on Ctrl-C is not checked"
fi

# A time limit shorter than a recorded run of a point to do: one warning.
awk -F, -v OFS=, 'NR > 1 { $10 = 500; $12 = "failed"; $13 = 1 } { print }' e.task-0.csv >w.task-0.csv
jw=$("$HNM_COMPARE" slurm --submit --no-wait --time 1 --tasks 2 --script w.sh "${T[@]}" -o w.csv -- "$PROG" 2>w.err)
st=$?
scancel "$jw"
check_eq "time limit warning: exit status" "$st" 0
check_eq "time limit warning: one line" "$(grep -c warning w.err)" 1
check "time limit warning: names the point" \
  grep -qx 'hnm-compare: warning: --time 1 (60 s) is shorter than a recorded run of grid index 0 (500.0 s wall)' w.err

# --attach to a job Slurm does not know: bad input.
"$HNM_COMPARE" slurm --attach 999999 --tasks 2 "${T[@]}" -o x.csv -- "$PROG" >x.out 2>x.err
st=$?
check_eq "--attach unknown job: exit status" "$st" 2
check_eq "--attach unknown job: the error" "$(cat x.err)" "hnm-compare: --attach: Slurm knows no job 999999 (squeue and sacct)"

# Calibration through srun (Open MPI's ranks started by Slurm, PMIx): the
# benchmark alone (hnm-calibrate run), then the whole loop (hnm-calibrate
# machine: run, run --refine, fit, apps/hostspeed on every rank), whose
# model, platform and hostfile hnm-run accepts.
if [ -x "$APPS_BIN/calibrate-mpi" ] && [ -x "$APPS_BIN/hostspeed-mpi" ]; then
  "$HNM_CALIBRATE" run --mpirun "srun -n 2" -d calrun -- --max 1KiB --sizes 8 --reps 1 --no-contention --no-rma \
    >calrun.out 2>calrun.err
  st=$?
  check_eq "srun calibration (run): exit status" "$st" 0
  check "srun calibration (run): p2p.csv measured" [ "$(wc -l <calrun/p2p.csv)" -gt 8 ]
  "$HNM_CALIBRATE" machine --mpirun "srun -n 2" -d cal --refine-reps 1 --speed-reps 1 --hosts 2 -- \
    --max 64KiB --sizes 24 --reps 2 --delay 1e-4 >cal.out 2>cal.err
  st=$?
  check_eq "srun calibration (machine): exit status" "$st" 0
  check "srun calibration: the ranks ran on Slurm's node ($(hostname -s))" \
    [ "$(cut -d, -f2 cal/speed.csv | tail -n +2 | sort -u)" = "$(hostname -s)" ]
  check "srun calibration: benchmark and host speed were Slurm jobs" \
    [ "$(squeue --states=all -h -o '%j %T' | grep -Ec '^(calibrate|hostspeed)-mpi COMPLETED$')" -ge 3 ]
  "$HNM_RUN" --model cal/model.xml -platform cal/platform.xml -hostfile cal/hostfile -np 2 "$PROG" --bytes 10 \
    >pred.out 2>pred.err
  st=$?
  check_eq "srun calibration: hnm-run accepts the model, platform and hostfile" "$st" 0
  check "srun calibration: the prediction's time" grep -Eq '^2,10,[0-9.e-]+$' pred.out
else
  check "no calibrate-mpi/hostspeed-mpi (Open MPI missing): nothing launched by srun to check" true
fi

# The timeout job, last: slurmctld ends it 60 to 90 s after it started.
"$HNM_COMPARE" slurm --attach "$tjob" --poll 1 --tasks 2 "${T[@]}" -o t/t.csv -- "$PROG" 2>t.err
st=$?
check_eq "timeout: exit status" "$st" 1
check "timeout: task 1 named TIMEOUT with its log" grep -Eq "task 1 \(job ${tjob}_1\): TIMEOUT, exit code [0-9]+:[0-9]+, log t/t.task-1.log" t.err
check "timeout: grid index 1 missing" grep -q 'missing grid indices: 1$' t.err
check "timeout: task 0's row merged" [ "$(rows t/t.csv)" = 1 -a "$(field t/t.csv 0 status)" = ok ]
# On a failure, what hnm-compare said, and the daemons' logs' ends.
if [ "$FAILED" != 0 ]; then
  for f in *.err "$SLURM_DIR"/log/*.log; do printf '== %s\n' "$f"; tail -n 20 "$f"; done
fi
finish
