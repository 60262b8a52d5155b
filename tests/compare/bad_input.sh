#!/usr/bin/env bash
# hnm-compare refuses bad input before running anything: exit status 2, one
# line on stderr naming the option (or FILE:LINE), no CSV written or changed.
source "$(dirname "$0")/lib.sh"

# compare_refuses WHAT PATTERN ARGS...: hnm-compare ARGS refuses (refuse,
# tests/lib.sh: no CSV written or changed in $WORK, the current directory).
compare_refuses() {
  local what=$1 pattern=$2
  shift 2
  refuse "$what" "$pattern" "$HNM_COMPARE" "$@"
}
R=(run --platform "$TWO" -o new.csv)
compare_refuses "np zero" "--np: '0' is not a process count" "${R[@]}" --np 2,0 -- "$PROG"
compare_refuses "np text" "--np: 'x' is not a process count" "${R[@]}" --np x -- "$PROG"
compare_refuses "np trailing comma" "--np: '2,' is not a comma-separated list" "${R[@]}" --np 2, -- "$PROG"
compare_refuses "np twice" "--np: '2' given twice" "${R[@]}" --np 2,2 -- "$PROG"
compare_refuses "np missing" "--np is required" "${R[@]}" -- "$PROG"
compare_refuses "unknown model" "--model: hyrbid: .*hyrbid" "${R[@]}" --np 2 --model hyrbid -- "$PROG"
compare_refuses "bad model file" "--model: .*malformed\.xml:[0-9]+" "${R[@]}" --np 2 --model "$DATA/models/malformed.xml" -- "$PROG"
compare_refuses "model twice" "--model: 'fluid' given twice" "${R[@]}" --np 2 --model fluid --model fluid -- "$PROG"
compare_refuses "missing platform" "--platform: cannot read platform file '/nonexistent.xml'" \
  run --platform /nonexistent.xml -o new.csv --np 2 -- "$PROG"
compare_refuses "missing hostfile" "--platform: cannot read hostfile '/nonexistent.hosts'" \
  run --platform "$TWO:/nonexistent.hosts" -o new.csv --np 2 -- "$PROG"
compare_refuses "same label twice" "two platforms named 'two'" run --platform "$TWO" --platform "$TWO" -o new.csv --np 2 -- "$PROG"
compare_refuses "bad metric" "--metric: 'wall' is neither auto, simclock nor csv:" "${R[@]}" --np 2 --metric wall -- "$PROG"
compare_refuses "bad metric filter" "--metric: 'csv:time_s:bytes': filter 'bytes' is not KEY=VALUE" \
  "${R[@]}" --np 2 --metric csv:time_s:bytes -- "$PROG"
compare_refuses "workers zero" "--workers: '0'" "${R[@]}" --np 2 --workers 0 -- "$PROG"
compare_refuses "negative timeout" "--timeout: '-1'" "${R[@]}" --np 2 --timeout -1 -- "$PROG"
compare_refuses "task beyond tasks" "--task: '3' is not below --tasks 3" "${R[@]}" --np 2 --task 3 --tasks 3 -- "$PROG"
compare_refuses "task alone" "--task and --tasks go together" "${R[@]}" --np 2 --task 1 -- "$PROG"
compare_refuses "unknown option" "--workres: unknown" "${R[@]}" --np 2 --workres 2 -- "$PROG"
compare_refuses "option without value" "--np: needs an argument" "${R[@]}" --np
compare_refuses "no program" "no program to run" "${R[@]}" --np 2
compare_refuses "program not executable" "cannot execute program '/nonexistent'" "${R[@]}" --np 2 -- /nonexistent
compare_refuses "no output" "-o OUT.csv is required" run --platform "$TWO" --np 2 -- "$PROG"
compare_refuses "reference program missing" "--reference: cannot execute '/nonexistent-mpi'" "${R[@]}" --np 2 --reference \
  --mpi-program /nonexistent-mpi -- "$PROG"
compare_refuses "log directory" "--log-dir: '/proc/nope/logs': cannot create" "${R[@]}" --np 2 --log-dir /proc/nope/logs -- "$PROG"
compare_refuses "an option hnm-run refuses" "platform two: hnm-run: '--cfg=smpi/os:1' conflicts with --model" \
  "${R[@]}" --np 2 --sim-opt=--cfg=smpi/os:1 -- "$PROG"
compare_refuses "unknown command" "unknown command 'rn'" rn --np 2
compare_refuses "slurm without script" "slurm needs --tasks N and --script" slurm --tasks 2 --np 2 -o new.csv -- "$PROG"

# An existing CSV that is not hnm-compare's is left alone.
printf 'a,b\n1,2\n' >other.csv
compare_refuses "foreign CSV" "other\.csv:1: header is not hnm-compare's" run --platform "$TWO" --np 2 -o other.csv -- "$PROG"
check "foreign CSV unchanged" [ "$(cat other.csv)" = "$(printf 'a,b\n1,2')" ]
printf '%s\n%s\n%s\n' "index,program,args,model,platform,np,metric,options,time_s,wall_s,maxrss_kib,status,exit_code" \
  "0,p,,fluid,two,2,csv:time_s,,1,0.1,10,ok,0" "1,p,,fluid,two,2,csv:time_s,,1,0.1" >short.csv
compare_refuses "short row" "short\.csv:3: 10 fields, expected 13" run --platform "$TWO" --np 2 -o short.csv -- "$PROG"
compare_refuses "merge: short row" "short\.csv:3: 10 fields" merge -o new.csv short.csv
compare_refuses "merge: missing input" "cannot read '/nonexistent.csv'" merge -o new.csv /nonexistent.csv
compare_refuses "merge: no input" "merge needs -o OUT.csv and at least one input" merge -o new.csv
head -n 2 short.csv >one.csv
compare_refuses "plot: unknown reference" "--reference: no ok run of model 'graphene'" plot one.csv -o fig --reference graphene
check "plot refused: no figure" [ ! -e fig-time.png ]
# An output that cannot be created is refused before the table is printed.
compare_refuses "plot: missing output directory" "-o: 'nodir/fig-time\.dat': cannot create" plot one.csv -o nodir/fig

# The one output rule: no output is one of the inputs (the
# platform, its hostfile, the program), directly or through a symbolic or
# hard link; -o is no FIFO; a refusal creates nothing (not the --log-dir,
# not the directory of slurm's per-task CSVs).
cp "$TWO" p.xml
cp "${TWO%.xml}.hosts" p.hosts
ln -s p.hosts hosts-link
ln p.xml plat-hard
compare_refuses "slurm: --script is the platform" \
  "^hnm-compare: --script: 'p\.xml' is --platform 'p\.xml': writing it would destroy it$" \
  slurm --tasks 2 --script p.xml --platform p.xml --np 2 -o sub/s.csv -- "$PROG"
compare_refuses "slurm: --script a link to the hostfile" \
  "^hnm-compare: --script: 'hosts-link' is --platform's hostfile 'p\.hosts': writing it would destroy it$" \
  slurm --tasks 2 --script hosts-link --platform p.xml --np 2 -o sub/s.csv -- "$PROG"
compare_refuses "slurm: -o is the platform" "^hnm-compare: -o: 'plat-hard' is --platform 'p\.xml'" \
  slurm --tasks 2 --script job.sh --platform p.xml --np 2 -o plat-hard -- "$PROG"
compare_refuses "run: -o is the platform" "^hnm-compare: -o: 'p\.xml' is --platform 'p\.xml': writing it would destroy it$" \
  run --platform p.xml --np 2 -o p.xml -- "$PROG"
compare_refuses "run: -o a hard link to the platform" "^hnm-compare: -o: 'plat-hard' is --platform 'p\.xml'" \
  run --platform p.xml --np 2 -o plat-hard -- "$PROG"
compare_refuses "run: --log-dir is the hostfile" "^hnm-compare: --log-dir: 'hosts-link' is --platform's hostfile 'p\.hosts'" \
  run --platform p.xml --np 2 -o new.csv --log-dir hosts-link -- "$PROG"
mkfifo o.csv
compare_refuses "run: -o a FIFO" "^hnm-compare: -o: 'o\.csv': not a regular file \(a FIFO would block\)$" \
  run --platform p.xml --np 2 -o o.csv -- "$PROG"
compare_refuses "run --dry-run: -o a FIFO" "^hnm-compare: -o: 'o\.csv': not a regular file \(a FIFO would block\)$" \
  run --dry-run --platform p.xml --np 2 -o o.csv -- "$PROG"
# --dry-run checks what a run checks: hnm-run's checks of each platform.
compare_refuses "run --dry-run: an option hnm-run refuses" "platform p: hnm-run: '--cfg=smpi/os:1' conflicts with --model" \
  run --dry-run --platform p.xml --np 2 -o new.csv --sim-opt=--cfg=smpi/os:1 -- "$PROG"
printf '<?xml version="1.0"?>\n<platform version="4.1">\n<zone id="z" routing="Full">\n</platform>\n' >bad.xml
cp p.hosts bad.hosts
compare_refuses "run --dry-run: a platform SimGrid cannot load" "^hnm-compare: platform bad: hnm-run: platform file 'bad\.xml'" \
  run --dry-run --platform bad.xml --np 2 -o new.csv -- "$PROG"
compare_refuses "run --dry-run: --log-dir that cannot be made" "--log-dir: 'p\.xml/logs': cannot create: Not a directory$" \
  run --dry-run --platform p.xml --np 2 -o new.csv --log-dir p.xml/logs -- "$PROG"
compare_refuses "run --dry-run: --log-dir ''" "^hnm-compare: --log-dir: '': cannot create: empty name$" \
  run --dry-run --platform p.xml --np 2 -o new.csv --log-dir '' -- "$PROG"
# plot: every name derived from PREFIX checked against the input, the PNGs
# regular files, -o '' refused; before the table is printed.
compare_refuses "plot: -o ''" "^hnm-compare: -o: empty PREFIX" plot one.csv -o ''
ln -s one.csv f2-time.png
compare_refuses "plot: PREFIX-time.png a link to the input" \
  "^hnm-compare: -o: 'f2-time\.png' is IN\.csv 'one\.csv': writing it would destroy it$" plot one.csv -o f2
ln one.csv f3.gp
compare_refuses "plot: PREFIX.gp a hard link to the input" "^hnm-compare: -o: 'f3\.gp' is IN\.csv 'one\.csv'" plot one.csv -o f3
ln -s one.csv f4-time.dat
compare_refuses "plot: PREFIX-time.dat a link to the input" "^hnm-compare: -o: 'f4-time\.dat' is IN\.csv 'one\.csv'" \
  plot one.csv -o f4
mkfifo f5-time.png
compare_refuses "plot: a FIFO for the PNG" "^hnm-compare: -o: 'f5-time\.png': not a regular file \(a FIFO would block\)$" \
  plot one.csv -o f5
ln -s /dev/full f6-time.png
compare_refuses "plot: the PNG a link to /dev/full" \
  "^hnm-compare: -o: 'f6-time\.png': not a regular file \(a device or socket cannot take it\)$" plot one.csv -o f6
# gnuplot exits 0 when it cannot write its figure (a full disk): a PNG cut
# short is a write error, exit 1 (a stand-in gnuplot that writes 6 bytes).
mkdir cutbin
cat >cutbin/gnuplot <<'SH'
#!/bin/sh
sed -n 's/^set output "\(.*\)"$/\1/p' "$1" | while IFS= read -r f; do printf '\211PNG\r\n' >"$f"; done
SH
chmod +x cutbin/gnuplot
PATH="$PWD/cutbin:$PATH" "$HNM_COMPARE" plot one.csv -o cut >/dev/null 2>err.txt
rc=$?
check "plot: a PNG cut short: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check_eq "plot: a PNG cut short: one line" "$(cat err.txt)" \
  "hnm-compare: -o: 'cut-time.png': write error: gnuplot left an incomplete PNG (a full disk?)"
# slurm --submit / --attach: the sbatch options are checked before the
# script is written or anything submitted (no Slurm needed for that).
S=(slurm --tasks 2 --script job.sh --platform "$TWO" --np 2 -o sub/s.csv)
compare_refuses "slurm: --time text" "--time: 'soon' is not a Slurm time limit" "${S[@]}" --submit --time soon -- "$PROG"
compare_refuses "slurm: --time H:M:S:X" "--time: '1:2:3:4' is not a Slurm time limit" "${S[@]}" --submit --time 1:2:3:4 -- "$PROG"
compare_refuses "slurm: --time negative" "--time: '-5' is not a Slurm time limit" "${S[@]}" --submit --time=-5 -- "$PROG"
compare_refuses "slurm: --time zero" "--time: '0:00' is zero" "${S[@]}" --time 0:00 -- "$PROG"
compare_refuses "slurm: --throttle 0" "--throttle" "${S[@]}" --submit --throttle 0 -- "$PROG"
compare_refuses "slurm: --mem 0" "--mem: '0' is not a memory size" "${S[@]}" --submit --mem 0 -- "$PROG"
compare_refuses "slurm: --mem 4X" "--mem: '4X' is not a memory size" "${S[@]}" --mem 4X -- "$PROG"
compare_refuses "slurm: --partition with a blank" "--partition: 'a b' is not a partition name" "${S[@]}" --partition "a b" -- "$PROG"
compare_refuses "slurm: --account with a newline" "--account: .* is not an account name" "${S[@]}" --account "$(printf 'a\nb')" -- "$PROG"
compare_refuses "slurm: --attach garbage" "--attach: '12x' is not a Slurm job id" "${S[@]}" --attach 12x -- "$PROG"
compare_refuses "slurm: --attach 0" "--attach: '0' is not a Slurm job id" "${S[@]}" --attach 0 -- "$PROG"
compare_refuses "slurm: --attach with --submit" "--attach: .*not with --submit" "${S[@]}" --submit --attach 12 -- "$PROG"
compare_refuses "slurm: --no-wait alone" "--no-wait: goes with --submit" "${S[@]}" --no-wait -- "$PROG"
compare_refuses "slurm: --cancel-on-interrupt alone" "--cancel-on-interrupt: goes with --submit or --attach" \
  "${S[@]}" --cancel-on-interrupt -- "$PROG"
compare_refuses "slurm: --poll 0" "--poll" "${S[@]}" --submit --poll 0 -- "$PROG"
compare_refuses "run: --submit is slurm's" "submit" run --platform "$TWO" --np 2 -o new.csv --submit -- "$PROG"
# No sbatch on PATH: failed work (exit 1), one line naming it; the script is written.
mkdir nosb && ln -s "$(command -v bash)" nosb/bash
(cd nosb && PATH=$WORK/nosb "$HNM_COMPARE" slurm --submit --tasks 2 --script job.sh --platform "$TWO" --np 2 -o s.csv -- "$PROG" >out.txt 2>err.txt)
st=$?
check_eq "slurm --submit without sbatch: exit status" "$st" 1
check_eq "slurm --submit without sbatch: the error" "$(grep -v ': job.sh: ' nosb/err.txt)" \
  "hnm-compare: --submit: sbatch is not installed (not on PATH); the script job.sh is written"
check "slurm --submit without sbatch: the script" [ -x nosb/job.sh ]
check "slurm --submit without sbatch: nothing on stdout" [ ! -s nosb/out.txt ]
(cd nosb && PATH=$WORK/nosb "$HNM_COMPARE" slurm --attach 5 --tasks 2 --platform "$TWO" --np 2 -o s.csv -- "$PROG" >out.txt 2>err.txt)
st=$?
check_eq "slurm --attach without squeue: exit status" "$st" 1
check_eq "slurm --attach without squeue: the error" "$(cat nosb/err.txt)" "hnm-compare: cannot run squeue: No such file or directory"
finish
