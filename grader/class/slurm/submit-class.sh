#!/usr/bin/env bash
# Grades a class on a Slurm cluster, with the course (source and build) on a shared filesystem:
#   1. one job builds: the course's checks and the class build (stepwise class --step prepare);
#   2. a job array, one task per student (--gres=gpu:1), each grading that student into its own
#      records (stepwise class --step check --student-index $SLURM_ARRAY_TASK_ID);
#   3. a job after the array, whatever its tasks' outcome, merges the records into the gradebook
#      (stepwise class --step merge).
# Usage:
#   submit-class.sh [--no-gpu] [--wait] [--task-time HH:MM:SS] [--only "<student> ..."]
#                   [--build-cpus N] [--task-cpus N] [--sbatch "<more sbatch options>"]
#                   CLASS_DIR OUT_DIR [stepwise class options: --lessons 00 01 --time-limit 120 ...]
# --build-cpus: CPUs of the build job (default $PREPARE_CPUS, else 8); --task-cpus: CPUs of each
# student's task (default $TASK_CPUS, else 4). A --cpus-per-task (-c) in --sbatch wins over both.
# Before submitting, the partition (--partition/-p in --sbatch, else the default one) is checked:
# its nodes must have that many CPUs, and a GPU unless --no-gpu; otherwise nothing is submitted.
# --only: array tasks for these students alone (e.g. to grade again those who sent late).
# STEPWISE names the course's bin/stepwise (default: build/bin/stepwise of this course). Prints
# the three job ids; with --wait it returns when the gradebook is written.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
stepwise="${STEPWISE:-$here/../../../build/bin/stepwise}"
gres="--gres=gpu:1"
wait_flag=""
task_time="01:00:00"
build_cpus="${PREPARE_CPUS:-8}"
task_cpus="${TASK_CPUS:-4}"
extra=()
only=()
fail() { echo "submit-class.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --no-gpu) gres=""; shift ;;
    --wait) wait_flag="--wait"; shift ;;
    --task-time) [ $# -ge 2 ] || fail "--task-time needs a value"; task_time="$2"; shift 2 ;;
    --only) [ $# -ge 2 ] || fail "--only needs a value"; read -r -a only <<<"$2"; shift 2 ;;
    --build-cpus) [ $# -ge 2 ] || fail "--build-cpus needs a value"; build_cpus="$2"; shift 2 ;;
    --task-cpus) [ $# -ge 2 ] || fail "--task-cpus needs a value"; task_cpus="$2"; shift 2 ;;
    --sbatch) [ $# -ge 2 ] || fail "--sbatch needs a value"; read -r -a more <<<"$2"; extra+=("${more[@]}"); shift 2 ;;
    -*) fail "unknown option $1 (the options come before CLASS_DIR OUT_DIR)" ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
positive() { [[ "$2" =~ ^[1-9][0-9]*$ ]] || fail "$1 must be a whole number above 0, not '$2'"; }
positive --build-cpus "$build_cpus"
positive --task-cpus "$task_cpus"
[[ "$task_time" =~ ^([0-9]+-)?[0-9]+(:[0-9]{2}){0,2}$ ]] || fail "--task-time must be a Slurm time (HH:MM:SS), not '$task_time'"
[ -d "$1" ] || fail "no class folder $1"
class="$(cd "$1" && pwd)"
[ -x "$stepwise" ] || fail "no $stepwise: build the course first (cmake --preset default && cmake --build build --target stepwise), or set STEPWISE"

# Options of our own that --sbatch overrides: its --cpus-per-task (-c), its partition.
cpus_given=""
partition=""
for ((i = 0; i < ${#extra[@]}; ++i)); do
  case "${extra[i]}" in
    --cpus-per-task=*) cpus_given="${extra[i]#*=}" ;;
    -c) cpus_given="${extra[i + 1]:-}" ;;
    -c*) cpus_given="${extra[i]#-c}" ;;
    --partition=*) partition="${extra[i]#*=}" ;;
    -p) partition="${extra[i + 1]:-}" ;;
    -p*) partition="${extra[i]#-p}" ;;
  esac
done
if [ -n "$cpus_given" ]; then
  positive "--sbatch's --cpus-per-task" "$cpus_given"
  build_cpus=$cpus_given task_cpus=$cpus_given
  build_cpu_option=() task_cpu_option=()
else
  build_cpu_option=(--cpus-per-task="$build_cpus") task_cpu_option=(--cpus-per-task="$task_cpus")
fi

# Can the partition run these jobs? Otherwise they would stay pending for ever.
command -v sinfo >/dev/null && command -v sbatch >/dev/null || fail "sinfo and sbatch are not found: run this on a Slurm login node"
if [ -z "$partition" ]; then
  partition=$(sinfo -h -o '%P' | sed -n 's/\*$//p' | head -n 1)
  [ -n "$partition" ] || fail "the cluster has no default partition: name one with --sbatch \"--partition=NAME\""
fi
node_cpus=$(sinfo -h -p "$partition" -o '%c' | tr -d '+' | sort -n | tail -n 1)
[ -n "$node_cpus" ] || fail "no partition '$partition' (sinfo -p $partition lists no nodes)"
for need in "build job:$build_cpus:--build-cpus" "student tasks:$task_cpus:--task-cpus"; do
  IFS=: read -r what cpus option <<<"$need"
  if [ "$cpus" -gt "$node_cpus" ]; then
    fail "the $what would ask for $cpus CPUs, but the nodes of partition '$partition' have at most $node_cpus:" \
         "they would stay pending for ever. Ask for fewer ($option $node_cpus), or name another partition (--sbatch \"--partition=NAME\")"
  fi
done
if [ -n "$gres" ] && ! sinfo -h -p "$partition" -o '%G' | grep -q 'gpu'; then
  fail "the nodes of partition '$partition' have no GPU (gres gpu): name a GPU partition (--sbatch \"--partition=NAME\")," \
       "or --no-gpu to run every GPU check as SKIP"
fi

mkdir -p "$2/logs"
out="$(cd "$2" && pwd)"
shift 2

quoted() { printf '%q ' "$@"; }
grade="$(quoted "$stepwise") class $(quoted "$class") --out $(quoted "$out")"
[ $# -eq 0 ] || grade="$grade $(quoted "$@")"

# One array task per student: the Nth of the class build's students (the folders whose names it
# accepts, grader/class/CMakeLists.txt), or the Nth of --only.
if [ ${#only[@]} -gt 0 ]; then
  students=${#only[@]}
  pick="set -- $(quoted "${only[@]}"); shift \$SLURM_ARRAY_TASK_ID; $grade --step check --fresh --student \"\$1\""
else
  students=$(find "$class" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | grep -cE '^[A-Za-z0-9][A-Za-z0-9_.-]*$' || true)
  pick="$grade --step check --student-index \$SLURM_ARRAY_TASK_ID"
fi
[ "$students" -gt 0 ] || { echo "no student folders in $class" >&2; exit 2; }

prepare=$(sbatch --parsable "${extra[@]}" --job-name=class-prepare "${build_cpu_option[@]}" \
  --time=02:00:00 --output="$out/logs/slurm-prepare-%j.log" \
  --wrap "$grade --step prepare")
array=$(sbatch --parsable "${extra[@]}" --job-name=class-check --dependency="afterok:$prepare" \
  --array="0-$((students - 1))" $gres "${task_cpu_option[@]}" --time="$task_time" \
  --output="$out/logs/slurm-student-%a.log" \
  --wrap "$pick")
echo "prepare job $prepare, student array $array (0-$((students - 1))), merge job follows"
merge=$(sbatch --parsable $wait_flag "${extra[@]}" --job-name=class-merge --dependency="afterany:$array" \
  --time=00:10:00 --output="$out/logs/slurm-merge-%j.log" \
  --wrap "$grade --step merge")
echo "merge job $merge: the gradebook will be $out/gradebook.csv"
