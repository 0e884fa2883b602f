#!/usr/bin/env bash
# The Slurm path for real, on a one-node cluster started here: starts munged, slurmctld and slurmd
# in the foreground with a configuration, sockets and state in a short private folder of its own
# (mktemp -d under /tmp: a Unix socket's path may hold at most 108 bytes, so not the build tree),
# grades three students of the sample class (correct, a failing check, not compiling) again
# through grader/class/slurm/submit-class.sh (a build job, a job array of three tasks, a merge
# job), checks the merged gradebook field by field, and shuts the cluster down. It works in the
# sample class that one_machine.cmake graded (its build is reused: the build job finds nothing to
# compile). Without a GPU the GPU checks are SKIP; the CPU check and the compile results must be
# right.
#   slurm_test.sh <bin/stepwise> <course source> <one_machine.cmake's work folder>
# It installs nothing: where slurm-wlm and munge are missing (.ci/run installs them in CI) or it
# does not run as root (slurmd must, to start jobs), it exits 77 (skipped) saying why.
set -euo pipefail
runner=$1 source=$2 sample=$3

missing=()
for program in slurmctld slurmd munged sbatch sinfo; do
  command -v "$program" >/dev/null || missing+=("$program")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "skipped: Slurm is not installed (${missing[*]} not found); .ci/run installs it (apt-get install slurm-wlm munge)"
  exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: slurmd must run as root to start jobs, and this test runs as $(id -un)"
  exit 77
fi

cluster=$(mktemp -d /tmp/stepwise-slurm.XXXXXX)
mkdir -p "$cluster/munge" "$cluster/state" "$cluster/spool"
chmod 700 "$cluster/munge"
dd if=/dev/urandom of="$cluster/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$cluster/munge/munge.key"

pids=()
stop_cluster() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap 'stop_cluster; rm -rf "$cluster"' EXIT

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
STEPWISE="$runner" timeout 600 \
  "$source/grader/class/slurm/submit-class.sh" --no-gpu --wait --task-time 00:10:00 --build-cpus "$(nproc)" --task-cpus 1 \
  --only "ada-correct ben-wrong cy-no-compile" "$sample/class" "$out" --lessons 00 01 --time-limit 10
cat "$out"/logs/slurm-merge-*.log

# Each array task graded its student (again), and the merged gradebook is the expected one.
for student in ada-correct ben-wrong cy-no-compile; do
  # (cy-no-compile has nothing to run: its task says so)
  grep -lE "^(checking $student |$student: no checks to run: )" "$out"/logs/slurm-student-*.log >/dev/null ||
    { echo "no array task graded $student:"; tail -n 5 "$out"/logs/slurm-*.log; exit 1; }
done
tasks=$(ls "$out"/logs/slurm-student-*.log | wc -l)
[ "$tasks" -eq 3 ] || { echo "$tasks array tasks ran, not 3"; exit 1; }
cmake -DEXPECTED="$source/grader/class/selftest/expected-cpu.csv" -DACTUAL="$out/gradebook.csv" \
  -P "$source/grader/class/selftest/compare_gradebook.cmake"
echo "graded by Slurm: 3 array tasks and the merge job; the gradebook is as expected"
