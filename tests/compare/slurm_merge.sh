#!/usr/bin/env bash
# Split and merge: the job-array script that `hnm-compare slurm --tasks 3`
# writes is run here three times with SLURM_ARRAY_TASK_ID=0,1,2 (what sbatch
# would do), task I runs the grid indices I mod 3, and merging the three CSVs
# gives the single-process sweep, row for row, except the wall time and
# memory columns. Then merge's duplicate and conflict detection.
source "$(dirname "$0")/lib.sh"

G=(--model fluid --model loggps --np 2,4 --platform "$FLAT" "${SIMS[@]}" --args "--bytes 10" --args "--bytes 5000")
"$HNM_COMPARE" run "${G[@]}" -o single.csv -- "$PROG" 2>/dev/null
check "single sweep: 8 rows" [ "$(rows single.csv)" -eq 8 ]

"$HNM_COMPARE" slurm --tasks 3 --script job.sh --sbatch "--time=00:10:00" "${G[@]}" -o sweep.csv -- "$PROG" >/dev/null
check "script written, executable" [ -x job.sh ]
check "array of 3 tasks" grep -qx '#SBATCH --array=0-2' job.sh
check "user sbatch line" grep -qx '#SBATCH --time=00:10:00' job.sh
check "script runs its task's slice" grep -q -- '--task "$task" --tasks 3 -o sweep.task-"$task".csv' job.sh
"$HNM_COMPARE" slurm --tasks 2 --script job2.sh "${G[@]}" -o sub/dir/s.csv -- "$PROG" >/dev/null
check "the per-task CSVs' directory is created (Slurm opens --output there first)" [ -d sub/dir ]
check "script refuses to run outside an array job" bash -c "! env -u SLURM_ARRAY_TASK_ID bash job.sh 2>/dev/null"
for t in 0 1 2; do
  SLURM_ARRAY_TASK_ID=$t bash job.sh 2>/dev/null
  st=$?
  check_eq "task $t: exit status" "$st" 0
  want=$(for i in 0 1 2 3 4 5 6 7; do [ $((i % 3)) -eq $t ] && echo $i; done | tr '\n' ' ')
  check "task $t: indices $want" [ "$(tail -n +2 sweep.task-$t.csv | cut -d, -f1 | sort -n | tr '\n' ' ')" = "$want" ]
done
"$HNM_COMPARE" merge -o merged.csv sweep.task-2.csv sweep.task-0.csv sweep.task-1.csv 2>merge.txt
st=$?
check_eq "merge: exit status" "$st" 0
check "merge: summary" grep -q '8 runs (0 not ok) from 3 files into merged.csv; 0 duplicates dropped' merge.txt
# Columns 1-9, 12-13: all but wall_s and maxrss_kib (no quoted field here).
sort_single=$( (head -n 1 single.csv; tail -n +2 single.csv | sort -t, -k1,1n) | cut -d, -f1-9,12,13)
check "merged rows sorted by index equal the single sweep's" [ "$(cut -d, -f1-9,12,13 merged.csv)" = "$sort_single" ]

# Duplicates (the same run in two files, same time) are dropped once.
"$HNM_COMPARE" merge -o m2.csv merged.csv single.csv 2>merge.txt
st=$?
check_eq "duplicates: exit status" "$st" 0
check "duplicates: 8 dropped" grep -q '8 runs (0 not ok) from 2 files into m2.csv; 8 duplicates dropped' merge.txt
check "duplicates: same rows" [ "$(cut -d, -f1-9,12,13 m2.csv)" = "$sort_single" ]
# An ok row wins over a failed row of the same run from another file.
awk -F, -v OFS=, 'NR == 1 || $1 != 3 { print; next } { $9 = ""; $12 = "failed"; $13 = 1; print }' single.csv >failed3.csv
"$HNM_COMPARE" merge -o m3.csv failed3.csv sweep.task-0.csv 2>/dev/null
check "ok wins over failed" [ "$(field m3.csv 3 status)" = ok ]
# A conflict: the same run with another time in another file.
awk -F, -v OFS=, 'NR == 3 { $9 = $9 * 2 } { print }' single.csv >conflict.csv
line3=$(sed -n 3p single.csv | cut -d, -f1)
refuse "conflict: naming conflict.csv:3" 'conflict\.csv:3: time_s .* conflicts with merged\.csv:' \
  "$HNM_COMPARE" merge -o m4.csv merged.csv conflict.csv
check "conflict: nothing written" [ ! -e m4.csv ]
# CSVs of different grids: two runs with one index.
sed 's/^0,\(.*\),--bytes 10,fluid,/0,\1,--bytes 11,fluid,/' single.csv >othergrid.csv
refuse "different grids: the message names index 0" 'index 0 is another run' \
  "$HNM_COMPARE" merge -o m5.csv merged.csv othergrid.csv

# Plot: the PNGs, and the table's relative error of loggps against fluid.
"$HNM_COMPARE" plot merged.csv -o fig --reference fluid --title "sendrecv" >table.txt 2>/dev/null
st=$?
check_eq "plot: exit status" "$st" 0
for f in fig-time.png fig-error.png; do
  check "$f is a PNG" [ "$(head -c 8 "$f" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ]
done
t_f=$(field merged.csv 0 time_s) t_l=$(field merged.csv 1 time_s)
got=$(awk '$1 == "loggps" && $2 == "--bytes" && $3 == "10" && $4 == 2 { print $6 }' table.txt)
want=$(awk -v a="$t_l" -v b="$t_f" 'BEGIN { printf "%+.1f%%", 100 * (a - b) / b }')
check "table: loggps vs fluid at np 2, 10 B: $got = $want" [ "$got" = "$want" ]
check "error data: 4 points for loggps, 2 series" [ "$(grep -c '^[0-9]' fig-error.dat)" -eq 4 ]
"$HNM_COMPARE" plot merged.csv -o only --only "args=--bytes 5000" --only model=loggps --reference fluid >/dev/null 2>&1
check "plot --only: loggps at 5000 B (2 points) and its fluid reference (2 points)" \
  [ "$(grep -c '^[0-9]' only-time.dat)" -eq 4 -a "$(grep -c '^# ' only-time.dat)" -eq 2 ]
check "plot --only: 2 error points" [ "$(grep -c '^[0-9]' only-error.dat)" -eq 2 ]
finish
