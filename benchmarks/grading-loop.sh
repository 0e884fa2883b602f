#!/usr/bin/env bash
# How long a student waits for the grader (issue 29's goals), on this machine, with the course
# already built: each command runs RUNS times (default 5) after one warm-up, and the table shows
# the fastest, median and slowest wall time in seconds. Nothing changes between runs, so every
# figure is the "nothing changed" case.
#   benchmarks/grading-loop.sh [build folder, default build]      RUNS=3 LESSONS="00 05 13"
# Goals: grade NN <= 2 s; the whole untouched course <= 10 s; the solutions' correctness checks
# (--track solution --skip speed) <= 30 s. (watch <= 3 s and a fresh clone's first verdict
# <= 60 s need a copy and an edit: benchmarks/fresh-clone.sh.)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${RUNS:-5}
stepwise="$build/bin/stepwise"
[ -x "$stepwise" ] || { echo "no $stepwise: build the course first (cmake --workflow --preset grade)" >&2; exit 2; }

# Wall seconds of one run of "$@" (its output thrown away, its exit status ignored: TODO is not 0).
seconds() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s%N)
  awk -v ns=$((end - start)) 'BEGIN { printf "%.3f\n", ns / 1e9 }'
}

row() {
  local what=$1 goal=$2
  shift 2
  seconds "$@" >/dev/null  # warm-up
  local times=()
  for _ in $(seq "$runs"); do times+=("$(seconds "$@")"); done
  sorted=$(printf '%s\n' "${times[@]}" | sort -g)
  # The median: the middle time, or the mean of the two middle ones when the count is even.
  median=$(awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }' <<<"$sorted")
  printf '| %s | %s | %.2f | %.2f | %.2f |\n' "$what" "$goal" "$(head -1 <<<"$sorted")" "$median" "$(tail -1 <<<"$sorted")"
}

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
echo "$(nproc) cores, ${gpu:-no GPU}; $runs runs each after one warm-up; seconds"
echo
echo "| command | goal | fastest | median | slowest |"
echo "| --- | --- | --- | --- | --- |"
for nn in ${LESSONS:-00 05 13}; do
  row "stepwise grade $nn" "<= 2" "$stepwise" grade "$nn"
done
row "stepwise grade (every lesson)" "<= 10" "$stepwise" grade
row "stepwise grade --track solution --skip speed" "<= 30" "$stepwise" grade --track solution --skip speed

# Where the last solutions run's time went: its processes, longest first (STEPWISE_RUN_LOG).
log=$(mktemp)
STEPWISE_RUN_LOG=$log "$stepwise" grade --track solution --skip speed >/dev/null 2>&1 || true
echo
echo "The processes of one more such run (start and end, seconds from its first check):"
awk '$2 == "start" { started[substr($0, index($0, $3))] = $1 }
     $2 == "end" { what = substr($0, index($0, $3)); sub(/,[^,]*$/, "", what); if (what in started) printf "  %7.2f %7.2f  %s\n", started[what], $1, what }' "$log" |
  sort -k2 -g -r | head -"${SHOW:-12}"
# The same run by kind of process: the ones that held the GPU alone run first, one at a time (they
# end where the first process of another kind starts); the rest share the machine, so their summed
# seconds against the wall time say how much they slowed each other.
echo
echo "By kind (processes, their seconds summed, wall time of the run):"
awk '$2 == "start" && !beside && / check\(s\) in processes of their own/ { beside = $1 }
     $2 == "start" { started[substr($0, index($0, $3))] = $1 }
     $2 == "end" { what = substr($0, index($0, $3)); sub(/,[^,]*$/, "", what); last = $1
                   if (!(what in started) || what ~ / check\(s\) in processes of their own/) next
                   kind = "shared processes"
                   if (!beside) kind = "holding the GPU alone"  # ended before the others started
                   if (what ~ /\/demo$/) kind = "demos"
                   if (what ~ /\/Sanitizer\./) kind = "compute-sanitizer runs"
                   count[kind]++; summed[kind] += $1 - started[what] }
     END { for (kind in count) printf "  %-24s %3d  %7.1f s\n", kind, count[kind], summed[kind]
           printf "  %-24s      %7.1f s (the alone ones until %.1f s)\n", "wall", last, beside }' "$log"
rm -f "$log"
