#!/usr/bin/env bash
# -np beyond the hostfile's capacity: hnm-run places the ranks as smpirun
# does (SimGrid 3.32, smpi_deployment_smpirun: the hostfile unrolled, HOST:N
# as N lines, then rank i on line i mod lines; without a hostfile, the
# platform's hosts in name order), with one line of note on stderr. Each
# placement is checked against that rule written out here and against plain
# smpirun on the same platform and hostfile.
source "$(dirname "$0")/lib.sh"
W=$WORK
OPTS=(--cfg=smpi/simulate-computation:no --cfg=smpi/privatization:no --log=root.thres:critical)
PROG=$SIM_BIN/placement

# expected NP HOST...: "RANK HOST" for rank 0..NP-1 over the places HOST...
expected() {
  local np=$1
  shift
  local places=("$@") r
  for ((r = 0; r < np; r++)); do echo "$r ${places[r % ${#places[@]}]}"; done
}

# case WHAT NP PLACES... -- PLATFORM-ARGS...
case_() {
  local what=$1 np=$2
  shift 2
  local places=()
  while [ "$1" != -- ]; do places+=("$1"); shift; done
  shift
  local want got plain note
  want=$(expected "$np" "${places[@]}")
  got=$("$HNM_RUN" --model fluid "$@" -np "$np" "${OPTS[@]}" "$PROG" 2>"$W/err")
  st=$?
  check_eq "$what: hnm-run exits 0 ($(head -c 300 "$W/err")): exit status" "$st" 0
  check "$what: hnm-run's placement is rank i on place i mod ${#places[@]} (got: $(head -4 <<<"$got" | tr '\n' ';')...)" \
    [ "$got" = "$want" ]
  plain=$(smpirun "$@" -np "$np" "${OPTS[@]}" "$PROG" 2>/dev/null)
  check "$what: plain smpirun places the same (smpirun: $(head -4 <<<"$plain" | tr '\n' ';')...)" [ "$plain" = "$got" ]
  note=$(grep -c "^hnm-run: -np $np: more ranks than the ${#places[@]} places of .*: rank i runs on place i mod ${#places[@]}, as with smpirun\$" "$W/err")
  if [ "$np" -gt "${#places[@]}" ]; then
    check "$what: one line of note on stderr (got: $(cat "$W/err"))" [ "$note" -eq 1 ] && [ "$(grep -c . "$W/err")" -eq 1 ]
  else
    check "$what: no note within the capacity (got: $(cat "$W/err"))" [ ! -s "$W/err" ]
  fi
}

TWO=$DATA/platforms/two.xml
printf 'n-1:2\nn-0\n' >"$W/three.hosts"
case_ "two hosts, hostfile n-1:2 n-0, np 3 (the capacity)" 3 n-1 n-1 n-0 -- -platform "$TWO" -hostfile "$W/three.hosts"
case_ "two hosts, hostfile n-1:2 n-0, np 7" 7 n-1 n-1 n-0 -- -platform "$TWO" -hostfile "$W/three.hosts"
case_ "two hosts, no hostfile, np 5: hosts in name order" 5 n-0 n-1 -- -platform "$TWO"
mapfile -t FLAT < "$DATA/platforms/flat32.hosts"
case_ "32-line hostfile, np 64" 64 "${FLAT[@]}" -- -platform "$DATA/platforms/flat32.xml" -hostfile "$DATA/platforms/flat32.hosts"
case_ "32-line hostfile, np 33" 33 "${FLAT[@]}" -- -platform "$DATA/platforms/flat32.xml" -hostfile "$DATA/platforms/flat32.hosts"
finish
