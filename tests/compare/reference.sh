#!/usr/bin/env bash
# --reference: the same program built with mpicc (sendrecv-mpi) run with
# mpirun at each process count and argument set, recorded as model "mpirun",
# platform "-", with its own measured time_s (the receiver's MPI_Wtime
# difference: positive and below the run's wall time; nothing more can be
# known in advance of a real measurement). The plot's relative error against
# mpirun is (t_model - t_mpirun) / t_mpirun, recomputed here from the CSV.
source "$(dirname "$0")/lib.sh"
need mpirun "$PROG-mpi"

"$HNM_COMPARE" run --model fluid --np 2 --platform "$TWO" "${SIMS[@]}" --args "--bytes 1000" --reference \
  --timeout 120 -o ref.csv -- "$PROG" 2>err.txt
st=$?
check_eq "exit status ($(tail -n 2 err.txt))" "$st" 0
check "2 rows: the simulation, then the reference" [ "$(rows ref.csv)" -eq 2 ]
check "reference row: index 1, model mpirun, platform -, np 2, ok" \
  grep -q "^1,$PROG,--bytes 1000,mpirun,-,2,auto,\"--allow-run-as-root --oversubscribe --mca btl self,vader\",[0-9.e+-]*,[0-9.]*,[0-9]*,ok,0\$" ref.csv
t=$(field ref.csv 1 time_s) w=$(field ref.csv 1 wall_s)
check "measured time $t in (0, wall time $w]" awk -v t="$t" -v w="$w" 'BEGIN { exit !(t > 0 && t <= w) }'
check "the mpirun command" grep -q -- "^1: mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -np 2 $PROG-mpi --bytes 1000\$" \
  <("$HNM_COMPARE" run --dry-run --model fluid --np 2 --platform "$TWO" --args "--bytes 1000" --reference -o none.csv -- "$PROG")
"$HNM_COMPARE" plot ref.csv -o fig --reference mpirun >table.txt 2>/dev/null
st=$?
check_eq "plot against mpirun: exit status" "$st" 0
want=$(awk -v a="$(field ref.csv 0 time_s)" -v b="$t" 'BEGIN { printf "%.6g", 100 * (a - b) / b }')
got=$(awk '/^[0-9]/ { printf "%.6g", $2 }' fig-error.dat)
check "relative error of fluid against mpirun: $got = $want" [ "$got" = "$want" ]
finish
