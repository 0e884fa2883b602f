#!/usr/bin/env bash
# The Slurm path for real, on a one-node cluster started here: installs Debian's slurm-wlm and
# munge when missing, starts munged, slurmctld and slurmd in the foreground with a configuration
# written to a temporary folder, grades three students of the sample class (correct, a failing
# check, not compiling) again through grader/class/slurm/submit-class.sh (a build job, a job
# array of three tasks, a merge job), checks the merged gradebook field by field, and shuts the
# cluster down. It works in the sample class that one_machine.cmake graded (its build is reused:
# the build job finds nothing to compile). Without a GPU the GPU checks are SKIP; the CPU check
# and the compile results must be right.
#   slurm_test.sh <bin/stepwise> <course source> <one_machine.cmake's work folder>
# Exit status 77 (skipped) when Slurm is missing and cannot be installed (not root, no apt-get,
# no network: a GPU machine cut off from the internet).
set -euo pipefail
runner=$1 source=$2 sample=$3
work="$sample/slurm"

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "slurm-wlm and munge are not installed, and installing them needs root: skipped"
    exit 77
  fi
  echo "installing slurm-wlm and munge"
  if ! command -v apt-get >/dev/null || ! { apt-get update -q >/dev/null 2>&1 &&
       DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null 2>&1; }; then
    echo "slurm-wlm and munge are not installed and could not be installed (no apt-get, or no network): skipped"
    exit 77
  fi
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "slurmd must run as root to start jobs: skipped"
  exit 77
fi

rm -rf "$work"
mkdir -p "$work/cluster/munge" "$work/cluster/state" "$work/cluster/spool"
cluster="$work/cluster"
chmod 700 "$cluster/munge"
dd if=/dev/urandom of="$cluster/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$cluster/munge/munge.key"

pids=()
stop_cluster() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_cluster EXIT

munged -F -f --socket="$cluster/munge/socket" --key-file="$cluster/munge/munge.key" \
  --pid-file="$cluster/munge/pid" --seed-file="$cluster/munge/seed" --log-file="$cluster/munge/log" \
  >"$cluster/munged.out" 2>&1 &
pids+=($!)

# Ports of our own, so that a Slurm of the machine (if any) is not disturbed.
port=$((20000 + RANDOM % 20000))
cat >"$cluster/slurm.conf" <<CONF
ClusterName=stepwisetest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$cluster/munge/socket
CredType=cred/munge
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/slurmctld.log
SlurmdLogFile=$cluster/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
# Where cgroups are version 2 and no systemd runs (a container, a small VM), slurmd 22.05's
# cgroup/v2 plugin fails to start: it asks systemd for its cgroups. This cluster tracks jobs
# without cgroups (proctrack/linuxproc, task/none), so the v1 plugin, which finds no v1
# hierarchy to use there, lets slurmd start.
if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ] && [ ! -S /run/dbus/system_bus_socket ]; then
  printf 'CgroupPlugin=cgroup/v1\nCgroupAutomount=no\n' >"$cluster/cgroup.conf"
fi
export SLURM_CONF="$cluster/slurm.conf"
for _ in $(seq 50); do [ -S "$cluster/munge/socket" ] && break; sleep 0.1; done
slurmctld -D -f "$SLURM_CONF" >"$cluster/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N localhost >"$cluster/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 0.2
done
sinfo -h -o %t | grep -q idle || { echo "the cluster did not start"; tail -n 20 "$cluster"/*.log "$cluster"/*.out; exit 1; }
echo "a one-node Slurm cluster runs: $(sinfo -h -o '%P %D %t %c CPUs')"

out="$sample/out"
[ -f "$out/gradebook.csv" ] || { echo "no sample class graded in $sample: one_machine.cmake first"; exit 1; }
rm -f "$out"/logs/slurm-* "$out/gradebook.csv"
STEPWISE="$runner" PREPARE_CPUS=$(nproc) TASK_CPUS=1 timeout 600 \
  "$source/grader/class/slurm/submit-class.sh" --no-gpu --wait --task-time 00:10:00 \
  --only "ada-correct ben-wrong cy-no-compile" "$sample/class" "$out" --lessons 00 01 --time-limit 10
cat "$out"/logs/slurm-merge-*.log

# Each array task graded its student (again), and the merged gradebook is the expected one.
for student in ada-correct ben-wrong cy-no-compile; do
  grep -l "^checking $student " "$out"/logs/slurm-student-*.log >/dev/null ||
    { echo "no array task graded $student:"; tail -n 5 "$out"/logs/slurm-*.log; exit 1; }
done
tasks=$(ls "$out"/logs/slurm-student-*.log | wc -l)
[ "$tasks" -eq 3 ] || { echo "$tasks array tasks ran, not 3"; exit 1; }
cmake -DEXPECTED="$source/grader/class/selftest/expected-cpu.csv" -DACTUAL="$out/gradebook.csv" \
  -P "$source/grader/class/selftest/compare_gradebook.cmake"
echo "graded by Slurm: 3 array tasks and the merge job; the gradebook is as expected"
