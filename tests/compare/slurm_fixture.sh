# slurm_fixture.sh -- a private single-node Slurm for the tests (sourced by
# bash after tests/lib.sh). slurm_start writes a munge key, a slurm.conf and
# the daemons' state, spool, log and socket directories under $SLURM_DIR (in
# the script's scratch directory), picks free TCP ports, starts munged on its
# own socket, slurmctld -D and slurmd -D in the background, and waits until
# the node is idle. Every daemon is stopped by its PID at exit (at_exit).
# Nothing under /etc/slurm, /etc/munge or /run/munge is read or written:
# the clients (sbatch, squeue, scontrol, scancel, srun) find the
# configuration through SLURM_CONF, and Slurm's munge plugin the socket
# through AuthInfo. Where a daemon is missing or does not start, the script
# skips (exit 77) naming the reason and the daemon's log.
#
# The node: this host, CPUs=4 (config_overrides: whatever the machine has),
# select/cons_tres with CR_CPU (one array task
# per CPU), proctrack/linuxproc (no cgroups), no accounting database (sacct
# does not work: the watcher reads squeue/scontrol), MinJobAge=3600 so a
# finished job stays visible. MpiDefault=pmix: srun starts Open MPI's ranks
# (as on clusters where `srun -n N PROGRAM` launches MPI programs).

SLURM_DIR=
SLURM_CONF=
SLURM_PIDS=()

# slurm__free_port: a TCP port nobody listens on now (bound to 0, released).
slurm__free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null
}

slurm_stop() {
  local p i
  # The jobs first (their slurmstepd end with them), while slurmctld runs.
  if [ -n "$SLURM_CONF" ] && scancel --quiet --user="$(id -un)" 2>/dev/null; then
    for i in $(seq 30); do
      [ -z "$(squeue -h -t RUNNING,COMPLETING,PENDING -o %i 2>/dev/null)" ] && break
      sleep 0.1
    done
  fi
  for p in "${SLURM_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  # Up to 5 s for a clean exit, then KILL, each by its own PID.
  for i in $(seq 50); do
    local alive=0
    for p in "${SLURM_PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for p in "${SLURM_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
  SLURM_PIDS=()
}

# slurm__wait WHAT SECONDS CMD...: poll CMD every 0.2 s until it succeeds.
slurm__wait() {
  local what=$1 n=$(($2 * 5))
  shift 2
  while [ "$n" -gt 0 ]; do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
    n=$((n - 1))
  done
  return 1
}

# slurm__log NAME: the last lines of a daemon's log, for a skip's reason.
slurm__log() { tail -n 3 "$SLURM_DIR/log/$1.log" 2>/dev/null | tr '\n' ' '; }

slurm_start() {
  need munged slurmctld slurmd sbatch squeue scontrol scancel python3
  SLURM_DIR=$LIB__TMP/slurm
  mkdir -p "$SLURM_DIR"/{etc,state,spool,log,run,munge} || skip "cannot create $SLURM_DIR"
  chmod 700 "$SLURM_DIR"/munge
  at_exit slurm_stop
  local host ctl_port d_port
  host=$(hostname -s)
  ctl_port=$(slurm__free_port) && d_port=$(slurm__free_port) || skip "no free TCP port (python3 failed)"
  [ "$ctl_port" != "$d_port" ] || d_port=$(slurm__free_port)

  # munged: its own key, socket, pid, log and seed files.
  dd if=/dev/urandom of="$SLURM_DIR/munge/munge.key" bs=1024 count=1 2>/dev/null
  chmod 400 "$SLURM_DIR/munge/munge.key"
  MUNGE_SOCKET=$SLURM_DIR/munge/munge.socket
  munged --foreground --force --socket="$MUNGE_SOCKET" --key-file="$SLURM_DIR/munge/munge.key" \
    --pid-file="$SLURM_DIR/munge/munged.pid" --log-file="$SLURM_DIR/log/munged.log" \
    --seed-file="$SLURM_DIR/munge/munged.seed" >/dev/null 2>&1 &
  SLURM_PIDS+=($!)
  slurm__wait munged 5 test -S "$MUNGE_SOCKET" || skip "munged did not start: $(slurm__log munged)"

  export SLURM_CONF=$SLURM_DIR/etc/slurm.conf
  cat >"$SLURM_CONF" <<EOF
ClusterName=hnmtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/run/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/run/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=pmix
ReturnToService=2
SlurmdParameters=config_overrides
MinJobAge=3600
KillWait=2
OverTimeLimit=0
InactiveLimit=0
SchedulerParameters=sched_interval=1
PlugStackConfig=$SLURM_DIR/etc/plugstack.conf
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  : >"$SLURM_DIR/etc/plugstack.conf"
  slurmctld -D -i -f "$SLURM_CONF" >"$SLURM_DIR/log/slurmctld.out" 2>&1 &
  SLURM_PIDS+=($!)
  slurm__wait slurmctld 10 scontrol ping || skip "slurmctld did not start: $(slurm__log slurmctld)"
  slurmd -D -f "$SLURM_CONF" >"$SLURM_DIR/log/slurmd.out" 2>&1 &
  SLURM_PIDS+=($!)
  slurm__wait slurmd 15 slurm__idle || skip "slurmd did not register: $(slurm__log slurmd)"
}

slurm__idle() { sinfo -h -o %t 2>/dev/null | grep -qx idle; }
