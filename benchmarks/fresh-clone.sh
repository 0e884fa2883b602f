#!/usr/bin/env bash
# A fresh clone's first minutes and watch's seconds (the goals of issue 29 that need a clone and an
# edit; benchmarks/grading-loop.sh times the rest). It copies this checkout (a `git clone` of HEAD;
# with COPY=files or no git history, the files themselves) into a new folder, runs
# `cmake --workflow --preset grade` there on a terminal, as a student does, and says when the first
# `next:` line and the verdict (the last line) came. Then, in that copy, `stepwise watch NN` for
# each lesson of WATCH: EDITS times, it appends a comment line to the lesson's first exercise file
# (or the file named as NN/file.cu), and times the save to watch's next report.
#   benchmarks/fresh-clone.sh [folder, default: a new one under /tmp]    WATCH="05 13" EDITS=3 COPY=files
# Goals: the first next: line within 60 s, the verdict within 150 s (16 cores); watch within 3 s.
set -euo pipefail
cd "$(dirname "$0")/.."
copy=${1:-$(mktemp -d /tmp/stepwise-fresh.XXXXXX)}
edits=${EDITS:-3}
command -v script >/dev/null || { echo "needs script(1) (util-linux) for a terminal" >&2; exit 2; }
if [ -e "$copy" ] && [ -n "$(ls -A "$copy")" ]; then echo "$copy is not empty" >&2; exit 2; fi
if [ "${COPY:-clone}" = clone ] && git rev-parse --git-dir >/dev/null 2>&1; then
  git clone -q . "$copy"
else
  mkdir -p "$copy"
  tar --exclude=./.git --exclude=./build --exclude='./build-*' --exclude=./.deps -cf - . | tar -xf - -C "$copy"
fi
cd "$copy"

# Each line of the input with the seconds it came at (bash's clock: no process per line).
stamped() { while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "${line%$'\r'}"; done; }
# Seconds from $1 to the first (or last) line of log $2 that matches $3.
first_after() { awk -v s="$1" -v re="$3" '$0 ~ re { printf "%.1f", $1 - s; exit }' "$2"; }
last_line() { awk -v s="$1" 'NF > 1 { t = $1; text = substr($0, index($0, $2)) } END { printf "%.1f s: %s", t - s, text }' "$2"; }
reports() { grep -c 'next:' "$1" || true; }

echo "$(nproc) cores, $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || echo 'no GPU'); a copy in $copy"
log=$copy/.fresh-clone.log
start=$EPOCHREALTIME
script -qfec "cmake --workflow --preset grade" /dev/null < /dev/null | stamped > "$log" 2>&1 || true
echo
echo "| what | goal | seconds |"
echo "| --- | --- | --- |"
echo "| a fresh clone's cmake --workflow --preset grade: the first next: line | <= 60 | $(first_after "$start" "$log" 'next:') |"
echo "| the same: the verdict, its last line | <= 150 | $(last_line "$start" "$log") |"

# This machine's floor: nvcc on a file of one kernel and no header of its own, for the build's first
# architecture (best of 3). Machines differ two to one here, so read watch's seconds beside it.
nvcc=$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' build/CMakeCache.txt)
arch=$(sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' build/CMakeCache.txt); arch=${arch%%;*}; arch=${arch%%-*}
[[ $arch =~ ^[0-9]+$ ]] && arch=sm_$arch || arch=native
printf '__global__ void floor_kernel(float* p) { p[threadIdx.x] = 1.0f; }\n' > .floor.cu
floor=9999
for _ in 1 2 3; do
  t0=$EPOCHREALTIME; "$nvcc" -O3 -arch="$arch" -c .floor.cu -o .floor.o; t1=$EPOCHREALTIME
  floor=$(awk -v a="$t0" -v b="$t1" -v f="$floor" 'BEGIN { d = b - a; printf "%.2f", d < f ? d : f }')
done
echo "| this machine's floor: nvcc -arch=$arch of a one-kernel file, no headers of its own | - | $floor |"

for lesson in ${WATCH:-05}; do
  nn=${lesson%%/*}
  folder=$(ls -d lessons/"$nn"-*)
  file=${lesson#*/}
  if [ "$file" = "$lesson" ]; then  # the lesson's first exercise file (given code has no twin)
    for candidate in "$folder"/*.cu "$folder"/*.cpp; do
      name=${candidate##*/}
      if [ -f "solutions/${folder#lessons/}/$name" ]; then file=$name; break; fi
    done
  fi
  watch_log=$copy/.watch-$nn-${file%.*}.log  # one log per file watched (WATCH may name a lesson twice)
  script -qfec "build/bin/stepwise watch $nn" /dev/null < /dev/null 2>/dev/null | stamped > "$watch_log" &
  for _ in $(seq 600); do [ "$(reports "$watch_log")" -ge 1 ] && break; sleep 0.1; done
  for edit in $(seq "$edits"); do
    sleep 2
    before=$(reports "$watch_log")
    saved=$EPOCHREALTIME
    echo "// edit $edit" >> "$folder/$file"
    for _ in $(seq 600); do [ "$(reports "$watch_log")" -gt "$before" ] && break; sleep 0.02; done
    seconds=$(awk -v s="$saved" '/next:/ { t = $1 } END { printf "%.2f", t - s }' "$watch_log")
    echo "| stepwise watch $nn: a one-line edit of $file saved, to the next report | <= 3 | $seconds |"
  done
  pkill -f "stepwise watch $nn" || true
  wait 2>/dev/null || true
done
