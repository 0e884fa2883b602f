#!/usr/bin/env bash
# submit-class.sh's options and its check of the partition, with sbatch and sinfo stand-ins that
# record what would be submitted (no cluster needed): the CPUs come from --build-cpus/--task-cpus
# (or PREPARE_CPUS/TASK_CPUS), --sbatch's --cpus-per-task is not overridden, a partition whose
# nodes are too small or have no GPU is refused with a clear message before anything is submitted,
# and a bad value is refused.
#   submit_options.sh <course source>
set -euo pipefail
source=$1
work=$(mktemp -d /tmp/stepwise-submit.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/class/ada" "$work/class/ben"
cat >"$work/bin/sbatch" <<'SH'
#!/bin/sh
echo "sbatch $*" >>"$FAKE_SLURM/calls"
echo $$
SH
cat >"$work/bin/sinfo" <<'SH'
#!/bin/sh
case "$*" in
  *%P*) echo "small*"; echo "big" ;;
  *"-p big"*%c*) echo 64 ;;
  *"-p small"*%c*) echo 4 ;;
  *"-p nogpu"*%c*) echo 16 ;;
  *"-p big"*%G*|*"-p small"*%G*) echo "gpu:h100:1" ;;
  *"-p nogpu"*%G*) echo "(null)" ;;
esac
SH
printf '#!/bin/sh\n' >"$work/stepwise"
chmod +x "$work/bin/"* "$work/stepwise"
export PATH="$work/bin:$PATH" FAKE_SLURM="$work" STEPWISE="$work/stepwise"
unset PREPARE_CPUS TASK_CPUS
submit="$source/grader/class/slurm/submit-class.sh"
failures=0
# expect <0|fail> <pattern in the output or the sbatch calls> <submit-class.sh arguments...>
expect() {
  local want=$1 pattern=$2
  shift 2
  rm -f "$work/calls"
  local status=0 output
  output=$("$submit" "$@" "$work/class" "$work/out" 2>&1) || status=$?
  local calls=""
  [ -f "$work/calls" ] && calls=$(cat "$work/calls")
  if { [ "$want" = 0 ] && [ $status -ne 0 ]; } || { [ "$want" = fail ] && { [ $status -eq 0 ] || [ -n "$calls" ]; }; } ||
     ! grep -qE -- "$pattern" <<<"$output"$'\n'"$calls"; then
    echo "FAILED: submit-class.sh $* (exit $status; expected ${want}, and '$pattern')"
    echo "$output"
    echo "$calls"
    failures=$((failures + 1))
  else
    echo "ok: submit-class.sh $*"
  fi
}
expect fail "build job would ask for 8 CPUs, but the nodes of partition 'small' have at most 4.*--build-cpus 4"
expect 0 "class-prepare --cpus-per-task=4 .*" --build-cpus 4 --task-cpus 2
expect 0 "--array=0-1 --gres=gpu:1 --cpus-per-task=2 " --build-cpus 4 --task-cpus 2
PREPARE_CPUS=3 TASK_CPUS=1 expect 0 "class-prepare --cpus-per-task=3 .*" 
PREPARE_CPUS=3 TASK_CPUS=1 expect 0 "--gres=gpu:1 --cpus-per-task=1 "
expect 0 "sbatch --parsable --cpus-per-task=2 --job-name=class-prepare --time" --sbatch "--cpus-per-task=2"
expect 0 "--partition=big --job-name=class-prepare --cpus-per-task=8" --sbatch "--partition=big"
expect fail "student tasks would ask for 16 CPUs, but the nodes of partition 'big' have at most 64|student tasks would ask for 99 CPUs" --sbatch "--partition=big" --task-cpus 99
expect fail "partition 'nogpu' have no GPU.*--no-gpu" --sbatch "-p nogpu"
expect 0 "class-check --dependency" --sbatch "-p nogpu" --no-gpu
expect fail "--build-cpus must be a whole number above 0, not 'abc'" --build-cpus abc
expect fail "--task-cpus must be a whole number above 0, not '0'" --task-cpus 0
expect fail "--task-time must be a Slurm time" --task-time soon
expect fail "unknown option --cpus" --cpus 2
# --sbatch's own --cpus-per-task: ours is left out of every job, not added after it.
rm -f "$work/calls"
"$submit" --sbatch "--cpus-per-task=2" "$work/class" "$work/out" >/dev/null
if grep -q -- "--cpus-per-task=[^2]" "$work/calls"; then
  echo "FAILED: --sbatch --cpus-per-task=2 was overridden:"; cat "$work/calls"; failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] || { echo "$failures case(s) failed"; exit 1; }
echo "submit-class.sh: every case as expected"
