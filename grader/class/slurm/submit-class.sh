#!/usr/bin/env bash
# Grades a class on a Slurm cluster, with the course (source and build) on a shared filesystem:
#   1. one job builds: the course's checks and the class build (stepwise class --step prepare);
#   2. a job array, one task per student (--gres=gpu:1), each grading that student into its own
#      records (stepwise class --step check --student-index $SLURM_ARRAY_TASK_ID);
#   3. a job after the array, whatever its tasks' outcome, merges the records into the gradebook
#      (stepwise class --step merge).
# Usage:
#   submit-class.sh [--no-gpu] [--wait] [--task-time HH:MM:SS] [--only "<student> ..."]
#                   [--sbatch "<more sbatch options>"]
#                   CLASS_DIR OUT_DIR [stepwise class options: --lessons 00 01 --time-limit 120 ...]
# --only: array tasks for these students alone (e.g. to grade again those who sent late).
# STEPWISE names the course's bin/stepwise (default: build/bin/stepwise of this course). Prints
# the three job ids; with --wait it returns when the gradebook is written.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
stepwise="${STEPWISE:-$here/../../../build/bin/stepwise}"
gres="--gres=gpu:1"
wait_flag=""
task_time="01:00:00"
extra=()
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-gpu) gres=""; shift ;;
    --wait) wait_flag="--wait"; shift ;;
    --task-time) task_time="$2"; shift 2 ;;
    --only) read -r -a only <<<"$2"; shift 2 ;;
    --sbatch) read -r -a more <<<"$2"; extra+=("${more[@]}"); shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
class="$(cd "$1" && pwd)"
mkdir -p "$2/logs"
out="$(cd "$2" && pwd)"
shift 2
[ -x "$stepwise" ] || { echo "no $stepwise: build the course first (cmake --preset default && cmake --build build --target stepwise), or set STEPWISE" >&2; exit 2; }

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

prepare=$(sbatch --parsable "${extra[@]}" --job-name=class-prepare --cpus-per-task="${PREPARE_CPUS:-8}" \
  --time=02:00:00 --output="$out/logs/slurm-prepare-%j.log" \
  --wrap "$grade --step prepare")
array=$(sbatch --parsable "${extra[@]}" --job-name=class-check --dependency="afterok:$prepare" \
  --array="0-$((students - 1))" $gres --cpus-per-task="${TASK_CPUS:-4}" --time="$task_time" \
  --output="$out/logs/slurm-student-%a.log" \
  --wrap "$pick")
echo "prepare job $prepare, student array $array (0-$((students - 1))), merge job follows"
merge=$(sbatch --parsable $wait_flag "${extra[@]}" --job-name=class-merge --dependency="afterany:$array" \
  --time=00:10:00 --output="$out/logs/slurm-merge-%j.log" \
  --wrap "$grade --step merge")
echo "merge job $merge: the gradebook will be $out/gradebook.csv"
