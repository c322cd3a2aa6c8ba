#!/usr/bin/env bash
# A real single-node SLURM cluster on this machine, for the tests of `gputlm study run
# --engine slurm`: munged, slurmctld and slurmd as plain background daemons (no systemd,
# no cgroups), every file under one state directory. See tools/slurm/README.md.
#
#   tools/slurm/local-cluster.sh start  [--state-dir DIR] [--port N]
#   tools/slurm/local-cluster.sh stop   [--state-dir DIR]
#   tools/slurm/local-cluster.sh status [--state-dir DIR]
#
# DIR defaults to /tmp/gputlm-slurm; N (slurmctld's port, slurmd takes N+1) to 16817.
# `start` prints on stdout only the environment to use the cluster, also written to
# DIR/env.sh:
#   export SLURM_CONF=DIR/slurm.conf
# so `eval "$(tools/slurm/local-cluster.sh start)"` works; messages go to stderr.
# Exit status: 0 done (start/stop of a cluster already up/down included; status: up),
# 1 failure (the message names the cause and the log to read), 2 usage, 3 status: down.
# Needs root and Debian's slurm-wlm and munge packages.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|status [--state-dir DIR] [--port N]" >&2
  exit 2
}
action="${1:-}"
[ $# -gt 0 ] && shift
state=/tmp/gputlm-slurm
port=16817
while [ $# -gt 0 ]; do
  case "$1" in
    --state-dir) [ $# -ge 2 ] || usage; state="$2"; shift 2 ;;
    --state-dir=*) state="${1#*=}"; shift ;;
    --port) [ $# -ge 2 ] || usage; port="$2"; shift 2 ;;
    --port=*) port="${1#*=}"; shift ;;
    *) echo "local-cluster: unknown argument '$1'" >&2; usage ;;
  esac
done
case "$port" in ''|*[!0-9]*) echo "local-cluster: --port wants a number, not '$port'" >&2; exit 2 ;; esac
[ -n "$state" ] || usage
case "$state" in /*) ;; *) state="$PWD/$state" ;; esac
state="${state%/}"
conf="$state/slurm.conf"
export SLURM_CONF="$conf"
DAEMONS="slurmd slurmctld munged"   # stop order

say() { echo "local-cluster: $*" >&2; }
die() { say "$*"; exit 1; }
pid_of() { [ -s "$state/$1.pid" ] && tr -dc '0-9' <"$state/$1.pid"; }
# alive DAEMON: its pid file names a live (not zombie) process that is that daemon.
alive() {
  local pid stat
  pid="$(pid_of "$1" 2>/dev/null)" || return 1
  [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
  stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || return 1
  case "$stat" in *") Z "*|*") X "*) return 1 ;; esac
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ]
}
all_up() { alive munged && alive slurmctld && alive slurmd; }
# the node responds and can run jobs (a '*' suffix, e.g. 'idle*', means not responding)
node_ready() { sinfo -h -o '%t' 2>/dev/null | grep -qxE 'idle|mix|alloc|comp'; }
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# Live processes of this cluster: the daemons, slurmscriptd and slurmstepd carry
# SLURM_CONF=$conf in their environment (exported by this script before starting them),
# job processes carry it (from sbatch) together with SLURM_JOB_ID. Zombies are skipped:
# they are not running, and PID 1 here may be no init that reaps orphans.
cluster_pids() {
  local f p comm
  { grep -lzxF "SLURM_CONF=$conf" /proc/[0-9]*/environ 2>/dev/null || true; } | while read -r f; do
    p="${f#/proc/}"; p="${p%/environ}"
    [ "$p" = "$$" ] && continue
    comm="$(cat "/proc/$p/comm" 2>/dev/null)" || continue
    case "$comm" in
      munged|slurmctld|slurmd|slurmstepd|slurmscriptd) ;;
      *) grep -qz '^SLURM_JOB_ID=' "$f" 2>/dev/null || continue ;;
    esac
    case "$(cat "/proc/$p/stat" 2>/dev/null)" in *") Z "*|*") X "*|"") continue ;; esac
    echo "$p"
  done
}
log_tail() {
  local f
  for f in "$@"; do
    [ -s "$f" ] && { echo "--- last lines of $f:" >&2; tail -n 8 "$f" >&2; }
  done
  return 0
}

check_installed() {
  local b missing=""
  command -v munged >/dev/null || missing=" munged"
  [ -z "$missing" ] || die "not installed:$missing; install Debian's munge package (apt-get install -y --no-install-recommends munge)"
  missing=""
  for b in slurmctld slurmd sinfo sbatch squeue scontrol scancel; do
    command -v "$b" >/dev/null || missing="$missing $b"
  done
  [ -z "$missing" ] || die "not installed:$missing; install Debian's slurm-wlm package (apt-get install -y --no-install-recommends slurm-wlm)"
  local lib f found
  for lib in proctrack_linuxproc task_none select_cons_tres jobcomp_filetxt auth_munge; do
    found=0
    for f in /usr/lib/*/slurm-wlm/"$lib".so /usr/lib/slurm-wlm/"$lib".so /usr/lib*/slurm/"$lib".so; do
      [ -e "$f" ] && found=1
    done
    [ "$found" = 1 ] || die "the SLURM plugin $lib.so is missing; install Debian's slurm-wlm-basic-plugins package"
  done
}

write_conf() {
  local host node cpus mem
  host="$(hostname -s)" || die "hostname -s failed"
  [ -n "$host" ] || die "hostname -s printed nothing"
  # The node as slurmd itself sees it (CPUs, sockets, cores, threads, memory), so that its
  # registration always matches the configuration; nproc and /proc/meminfo otherwise.
  node="$(env -u SLURM_CONF slurmd -C 2>/dev/null | grep -m1 '^NodeName=' || true)"
  if [ -n "$node" ]; then
    node="$(echo "$node" | sed -E "s/^NodeName=[^ ]+/NodeName=$host/; s/ UpTime=.*//")"
  else
    cpus="$(nproc)"
    mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 ))
    node="NodeName=$host CPUs=$cpus RealMemory=$mem"
  fi
  cat >"$conf.tmp" <<CONF
# Written by tools/slurm/local-cluster.sh (rewritten at every start): a single-node cluster
# run by root, without systemd, cgroups or slurmdbd. Every file is under $state.
ClusterName=gputlm
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# no cgroups: processes tracked through /proc, no task binding
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
# start the next array task as soon as one ends (batch_sched_delay defaults to 3 s)
SchedulerParameters=batch_sched_delay=0
# No slurmdbd, so 'sacct -j' has no data ("Slurm accounting storage is disabled"). Finished
# jobs stay in slurmctld for MinJobAge seconds ('scontrol show job', 'squeue --states=all'),
# and each finished job is appended to JobCompLoc, which 'sacct --completion' reads.
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$state/jobcomp.txt
MinJobAge=86400
MaxJobCount=100000
MaxArraySize=100001
ReturnToService=2
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  mv "$conf.tmp" "$conf"
}

start() {
  check_installed
  [ "$(id -u)" -eq 0 ] || die "needs root: the daemons run as root (SlurmUser=root)"
  if all_up && node_ready; then
    say "already up ($state)"
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  # Half up, or left over from a killed run: begin again from nothing running.
  stop_daemons quiet || die "processes of an earlier cluster in $state survived SIGKILL: $(cluster_pids | tr '\n' ' ')"
  local p
  for p in "$port" "$((port + 1))"; do
    port_busy "$p" && die "port $p on 127.0.0.1 is in use (another cluster, or another program); pick other ports with --port N (uses N and N+1)"
  done
  mkdir -p "$state/ctld" "$state/spool" "$state/munge" || die "cannot create $state"
  chmod 711 "$state/munge"   # the socket lives here; the key itself is 0400
  if [ ! -s "$state/munge/munge.key" ]; then
    mungekey --create --keyfile="$state/munge/munge.key" 2>/dev/null ||
      dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none ||
      die "cannot write the munge key $state/munge/munge.key"
  fi
  chmod 400 "$state/munge/munge.key"
  write_conf
  rm -f "$state/env.sh"

  munged --force --socket="$state/munge/munge.socket" --key-file="$state/munge/munge.key" \
    --pid-file="$state/munged.pid" --log-file="$state/munged.log" \
    --seed-file="$state/munge/munge.seed" </dev/null >>"$state/daemons.out" 2>&1 ||
    { log_tail "$state/daemons.out" "$state/munged.log"; die "munged did not start (see $state/munged.log)"; }
  # -i: ignore unreadable saved state (e.g. written by another SLURM version)
  slurmctld -i -f "$conf" </dev/null >>"$state/daemons.out" 2>&1 ||
    { log_tail "$state/daemons.out" "$state/slurmctld.log"; stop_daemons quiet || true; die "slurmctld did not start (see $state/slurmctld.log)"; }
  slurmd -f "$conf" </dev/null >>"$state/daemons.out" 2>&1 ||
    { log_tail "$state/daemons.out" "$state/slurmd.log"; stop_daemons quiet || true; die "slurmd did not start (see $state/slurmd.log)"; }

  local deadline=$((SECONDS + 60)) d
  until node_ready; do
    for d in munged slurmctld slurmd; do
      if ! alive "$d"; then
        log_tail "$state/daemons.out" "$state/$d.log"
        stop_daemons quiet || true
        die "$d exited during start-up (see $state/$d.log)"
      fi
    done
    if [ "$SECONDS" -ge "$deadline" ]; then
      sinfo -N -l >&2 2>&1 || true
      log_tail "$state/slurmctld.log" "$state/slurmd.log"
      stop_daemons quiet || true
      die "the node did not become idle within 60 s (logs in $state)"
    fi
    sleep 0.2
  done
  echo "export SLURM_CONF=$conf" >"$state/env.sh"
  say "up: node $(hostname -s), partition debug, state in $state"
  echo "export SLURM_CONF=$conf"
}

# stop_daemons [quiet]: end the jobs, then slurmd, slurmctld and munged (SIGTERM, SIGKILL
# after 10 s), then any process still carrying this cluster's SLURM_CONF.
stop_daemons() {
  local d pid left jobs
  jobs=""
  if alive slurmctld; then jobs="$(squeue -h -o %A 2>/dev/null || true)"; fi
  if [ -n "$jobs" ]; then
    # shellcheck disable=SC2086
    scancel --quiet $jobs 2>/dev/null || true
    for _ in $(seq 1 50); do
      [ -z "$(squeue -h -o %A 2>/dev/null | head -n1)" ] && break
      sleep 0.2
    done
  fi
  for d in $DAEMONS; do
    if alive "$d"; then
      pid="$(pid_of "$d")"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 100); do alive "$d" || break; sleep 0.1; done
      if alive "$d"; then
        [ "${1:-}" = quiet ] || say "$d (pid $pid) ignored SIGTERM for 10 s; SIGKILL"
        kill -9 "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do alive "$d" || break; sleep 0.1; done
      fi
    fi
    rm -f "$state/$d.pid"
  done
  left="$(cluster_pids)"
  if [ -n "$left" ]; then
    # shellcheck disable=SC2086
    kill -9 $left 2>/dev/null || true
    for _ in $(seq 1 50); do [ -z "$(cluster_pids)" ] && break; sleep 0.1; done
  fi
  rm -f "$state/env.sh"
  for d in $DAEMONS; do
    alive "$d" && return 1
  done
  [ -z "$(cluster_pids)" ]
}

stop() {
  if [ ! -d "$state" ]; then
    say "down ($state does not exist)"
    return 0
  fi
  stop_daemons || die "some processes of the cluster in $state survived SIGKILL: $(cluster_pids | tr '\n' ' ')"
  say "stopped ($state)"
}

status() {
  local d
  if all_up && node_ready; then
    say "up ($state): munged $(pid_of munged), slurmctld $(pid_of slurmctld), slurmd $(pid_of slurmd)"
    sinfo >&2 || true
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  for d in munged slurmctld slurmd; do
    alive "$d" && say "$d is running (pid $(pid_of "$d")) but the cluster is not usable; 'stop' then 'start'"
  done
  say "down ($state)"
  return 3
}

case "$action" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
