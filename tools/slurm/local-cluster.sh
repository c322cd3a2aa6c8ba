#!/usr/bin/env bash
# A real single-node SLURM cluster on this machine, for the tests of `gputlm study run
# --engine slurm`: munged, slurmctld and slurmd as plain background daemons (no systemd),
# every file under one state directory.
#   tools/slurm/local-cluster.sh start|stop|status [--state-dir DIR]   (default /tmp/gputlm-slurm)
# `start` prints the environment to use it (also written to DIR/env.sh):
#   export SLURM_CONF=DIR/slurm.conf
# Needs root and Debian's slurm-wlm and munge (tools/install-deps.sh installs them).
# Accounting is off (no slurmdbd), so sacct has nothing to say; per-task states come from
# `scontrol show job` (kept MinJobAge seconds after the job ends).
set -euo pipefail
action="${1:-}"
shift || true
state=/tmp/gputlm-slurm
while [ $# -gt 0 ]; do
  case "$1" in
    --state-dir) state="$2"; shift 2 ;;
    --state-dir=*) state="${1#*=}"; shift ;;
    *) echo "local-cluster: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
conf="$state/slurm.conf"
export SLURM_CONF="$conf"

die() { echo "local-cluster: $*" >&2; exit 1; }
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
up() { alive "$state/munged.pid" && alive "$state/slurmctld.pid" && alive "$state/slurmd.pid"; }

start() {
  for b in munged slurmctld slurmd sinfo sbatch squeue scontrol; do
    command -v "$b" >/dev/null || die "$b not found: install Debian's slurm-wlm and munge (tools/install-deps.sh)"
  done
  [ "$(id -u)" -eq 0 ] || die "needs root (the daemons run as root)"
  if up; then
    echo "local-cluster: already up ($state)"
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  stop >/dev/null 2>&1 || true
  mkdir -p "$state/state" "$state/spool" "$state/munge"
  chmod 700 "$state/munge"
  [ -f "$state/munge/munge.key" ] || dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$state/munge/munge.key"
  munged --force --socket="$state/munge/munge.socket" --key-file="$state/munge/munge.key" \
    --pid-file="$state/munged.pid" --log-file="$state/munged.log" --seed-file="$state/munge/munge.seed" \
    || die "munged did not start (see $state/munged.log)"
  host="$(hostname -s)"
  cpus="$(nproc)"
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
  cat >"$conf" <<CONF
# Written by tools/slurm/local-cluster.sh: one node, one partition, no accounting.
ClusterName=gputlm-local
SlurmctldHost=$host
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$state/state
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MinJobAge=3600
SchedulerParameters=sched_interval=1
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  slurmctld -f "$conf" || die "slurmctld did not start (see $state/slurmctld.log)"
  slurmd -f "$conf" || die "slurmd did not start (see $state/slurmd.log)"
  for _ in $(seq 1 120); do
    if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
      echo "export SLURM_CONF=$conf" >"$state/env.sh"
      echo "local-cluster: up on $host ($cpus CPUs), state in $state"
      echo "export SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.5
  done
  tail -5 "$state/slurmctld.log" "$state/slurmd.log" >&2 || true
  die "the node did not become idle within 60 s (logs in $state)"
}

stop() {
  for d in slurmd slurmctld munged; do
    pidf="$state/$d.pid"
    if alive "$pidf"; then
      kill "$(cat "$pidf")" 2>/dev/null || true
      for _ in $(seq 1 100); do alive "$pidf" || break; sleep 0.1; done
      if alive "$pidf"; then kill -9 "$(cat "$pidf")" 2>/dev/null || true; fi
    fi
    rm -f "$pidf"
  done
  echo "local-cluster: stopped ($state)"
}

case "$action" in
  start) start ;;
  stop) stop ;;
  status)
    if up; then echo "local-cluster: up ($state)"; sinfo; else echo "local-cluster: down ($state)"; exit 1; fi ;;
  *) echo "usage: $0 start|stop|status [--state-dir DIR]" >&2; exit 2 ;;
esac
