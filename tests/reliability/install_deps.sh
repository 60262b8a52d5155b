#!/usr/bin/env bash
# scripts/install-deps calls apt only when a package is missing, counts a
# virtual package (simgrid, provided by libsimgrid-dev) as present when a
# package providing it is installed, and so works offline once everything
# is there. apt-get, apt and sudo are replaced on PATH by fakes that log
# their call and fail (as apt does offline); dpkg-query is the real one
# (this machine), then a fake one answering from a fixed package database.
source "$(dirname "$0")/lib.sh"

SCRIPT=$SOURCE_DIR/scripts/install-deps
FAKE=$W/fake
mkdir -p "$FAKE"
for t in apt-get apt sudo; do
  printf '#!/bin/sh\necho "%s $*" >>"%s/apt.log"\nexit 100\n' "$t" "$W" >"$FAKE/$t"
  chmod +x "$FAKE/$t"
done
mapfile -t NAMES < <(env -u HNM_DEPS_SKIP_HOST_ONLY "$SCRIPT" --list)  # test-distro sets it in its chroots
check "install-deps --list names packages (got ${#NAMES[@]})" [ "${#NAMES[@]}" -ge 10 ]
check "the list holds the virtual package simgrid" grep -qxF simgrid < <(printf '%s\n' "${NAMES[@]}")
# The host-only tests' packages (Slurm) are on the list, and left out where
# scripts/test-distro leaves those tests out (HNM_DEPS_SKIP_HOST_ONLY=1).
check "the list holds slurmd and munge (compare.slurm_sweep)" \
  bash -c 'grep -qxF slurmd <<<"$1" && grep -qxF munge <<<"$1"' _ "$(printf '%s\n' "${NAMES[@]}")"
SKIPPED=$(HNM_DEPS_SKIP_HOST_ONLY=1 "$SCRIPT" --list)
check_eq "HNM_DEPS_SKIP_HOST_ONLY=1: four names fewer" "$(grep -c . <<<"$SKIPPED")" "$((${#NAMES[@]} - 4))"
check "HNM_DEPS_SKIP_HOST_ONLY=1: no slurmd, no munge" bash -c '! grep -qxE "slurmd|munge" <<<"$1"' _ "$SKIPPED"
check "HNM_DEPS_SKIP_HOST_ONLY=1: simgrid still there" grep -qxF simgrid <<<"$SKIPPED"

# deps [DPKG-DB]: run install-deps with the fakes first on PATH (and a fake
# dpkg-query printing DPKG-DB, if given); status in $st, apt's calls in apt.log.
deps() {
  rm -f "$W/apt.log" "$FAKE/dpkg-query"
  if [ $# -gt 0 ]; then
    printf '%s\n' "$1" >"$W/db"
    printf '#!/bin/sh\ncat "%s/db"\n' "$W" >"$FAKE/dpkg-query"
    chmod +x "$FAKE/dpkg-query"
  fi
  PATH=$FAKE:$PATH timeout 60 bash "$SCRIPT" >"$W/deps.out" 2>"$W/deps.err"
  st=$?
}

# --- this machine: every package present (independently: dpkg -s, or an
# installed package whose Provides names it) -> exit 0, apt never called.
all_here=1
provided=$(dpkg-query -W -f='${Status}|${Provides}\n' 2>/dev/null | grep '^install ok installed|' |
  cut -d'|' -f2 | tr ',' '\n' | sed 's/(.*//; s/[[:space:]]//g; s/:.*//')
for p in "${NAMES[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] && continue
  grep -qxF -- "$p" <<<"$provided" && continue
  all_here=0
  echo "not installed here: $p"
done
if [ "$all_here" -eq 1 ]; then
  deps
  check "this machine, all present: exit 0 (got $st: $(head -c 300 "$W/deps.err"))" [ "$st" -eq 0 ]
  check "this machine, all present: apt not called (got: $(cat "$W/apt.log" 2>/dev/null))" [ ! -e "$W/apt.log" ]
  check "this machine, all present: silent" [ ! -s "$W/deps.err" ]
else
  echo "SKIP part: some packages are not installed on this machine (run scripts/install-deps)"
fi

# --- a fixed database: every name installed, simgrid only provided --------
db_with() { # STATUS-OF-GAWK PROVIDER-STATUS
  for p in "${NAMES[@]}"; do
    case $p in
      simgrid) ;;
      libsimgrid-dev) echo "$2 |libsimgrid-dev|simgrid" ;;
      gawk) echo "$1 |gawk:amd64|awk" ;;
      *) echo "ii |$p|" ;;
    esac
  done
  echo "un |simgrid|"  # dpkg's own record of the virtual name: never installed
  echo "ii |mawk|awk (= 1.3.4)"
}
deps "$(db_with ii ii)"
check "virtual simgrid provided: exit 0 (got $st: $(head -c 300 "$W/deps.err"))" [ "$st" -eq 0 ]
check "virtual simgrid provided: apt not called (got: $(cat "$W/apt.log" 2>/dev/null))" [ ! -e "$W/apt.log" ]

# Its provider removed (config files left, "rc"): both are missing.
deps "$(db_with ii rc)"
check "provider removed: apt's failure is the script's (got $st)" [ "$st" -ne 0 ]
check "provider removed: apt called (got: $(cat "$W/apt.log" 2>/dev/null))" [ -e "$W/apt.log" ]
check "provider removed: names libsimgrid-dev and simgrid, only them (got: $(cat "$W/deps.err"))" \
  grep -qx 'install-deps: installing libsimgrid-dev simgrid' "$W/deps.err"

# One real package missing: apt is called for it alone; offline, update
# fails, the install is still tried, and its failure ends the script.
deps "$(db_with un ii)"
check "gawk missing: exit non-zero (got $st)" [ "$st" -ne 0 ]
check "gawk missing: install tried for gawk alone (got: $(cat "$W/apt.log" 2>/dev/null))" \
  grep -qE '^(apt-get|sudo apt-get) install -y -qq --no-install-recommends gawk$' "$W/apt.log"
check "gawk missing: update tried first" grep -qE '^(apt-get|sudo apt-get) update' "$W/apt.log"
check "gawk missing: the name is not taken from the architecture-qualified gawk:amd64" \
  grep -qx 'install-deps: installing gawk' "$W/deps.err"

finish
