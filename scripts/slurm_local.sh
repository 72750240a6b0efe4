#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine: munge + slurmctld + slurmd (idempotent).
#
#   scripts/slurm_local.sh start     install Debian's slurm packages if missing, write the
#                                    config, start the daemons, wait for the node to be idle
#   scripts/slurm_local.sh stop      stop the daemons this script started
#   scripts/slurm_local.sh status    sinfo
#
# Needs root (as CI runs): it installs packages with apt-get and starts daemons. Everything
# it writes lives under SLURM_LOCAL_DIR (default /var/tmp/biasaudit-slurm): slurm.conf, the
# state and spool folders, pid and log files. Clients find the cluster through SLURM_CONF;
# `start` prints the line to export:  export SLURM_CONF=/var/tmp/biasaudit-slurm/slurm.conf
# The node is this host (`hostname -s`) at 127.0.0.1 with all its CPUs; jobs run as the user
# who submits them (root in CI). Ports: SLURM_CTLD_PORT (6817) and SLURM_D_PORT (6818).
set -euo pipefail
DIR=${SLURM_LOCAL_DIR:-/var/tmp/biasaudit-slurm}
CTLD_PORT=${SLURM_CTLD_PORT:-6817}
D_PORT=${SLURM_D_PORT:-6818}
CONF=$DIR/slurm.conf
NODE=$(hostname -s)
export SLURM_CONF=$CONF

log() { echo "slurm_local: $*" >&2; }

install() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null \
        && command -v sbatch >/dev/null && command -v munged >/dev/null; then
        return
    fi
    [ "$(id -u)" = 0 ] || { log "installing Slurm needs root"; exit 2; }
    log "installing slurmctld slurmd slurm-client munge (Debian)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurmctld slurmd slurm-client munge >/dev/null
}

start_munge() {
    if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
        return
    fi
    if [ ! -s /etc/munge/munge.key ]; then
        mkdir -p /etc/munge
        if command -v mungekey >/dev/null; then
            mungekey --create --keyfile=/etc/munge/munge.key
        else
            dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
        fi
    fi
    chown munge:munge /etc/munge/munge.key 2>/dev/null || true
    chmod 0400 /etc/munge/munge.key
    mkdir -p /run/munge /var/lib/munge /var/log/munge
    chown munge:munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
    if id munge >/dev/null 2>&1; then
        runuser -u munge -- munged
    else
        munged --force
    fi
    for _ in $(seq 50); do
        munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && return
        sleep 0.2
    done
    log "munged did not start"
    exit 1
}

write_conf() {
    mkdir -p "$DIR/state" "$DIR/spool"
    local cpus mem
    cpus=$(nproc)
    mem=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
    cat >"$CONF.new" <<EOF
# written by biasaudit scripts/slurm_local.sh: one node, this host, at 127.0.0.1
ClusterName=biasaudit
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$D_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
# no cgroups in a container: track processes by their parent, no task binding
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=300
InactiveLimit=0
KillWait=10
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
    mv "$CONF.new" "$CONF"
}

running() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

start() {
    install
    start_munge
    write_conf
    if ! running "$DIR/slurmctld.pid"; then
        slurmctld -f "$CONF"
    fi
    if ! running "$DIR/slurmd.pid"; then
        slurmd -f "$CONF"
    fi
    for _ in $(seq 120); do
        if sinfo -h -n "$NODE" -o %t 2>/dev/null | grep -qx 'idle\|mix\|alloc'; then
            log "cluster up: $(sinfo -h -o '%P %D %t %c' | tr '\n' ' ')"
            echo "export SLURM_CONF=$CONF"
            return
        fi
        sleep 1
    done
    log "the node did not become idle in 120 s; last lines of the logs:"
    tail -n 20 "$DIR/slurmctld.log" "$DIR/slurmd.log" >&2 || true
    exit 1
}

stop() {
    for daemon in slurmd slurmctld; do
        if running "$DIR/$daemon.pid"; then
            kill "$(cat "$DIR/$daemon.pid")"
        fi
    done
}

case ${1:-start} in
    start) start ;;
    stop) stop ;;
    status) sinfo ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
