#!/usr/bin/env bash
# The measured figures the lesson READMEs and docs/ quote, from one run on one GPU (issue 31):
# every command whose output a README quotes, run on a machine with a GPU and the course built,
# its output written to <out>/NN.txt (one file per lesson; docs/ figures in <out>/docs.txt) under
# a header line "### $ <the exact command>" and followed by "### exit status N (T s)". Each file
# starts with the date, the commit, the GPU and its driver, so a README can name all four.
#   benchmarks/readme-figures.sh [build folder, default build] [out folder, default <build>/readme-figures] [NN... | docs]
#   benchmarks/readme-figures.sh build /tmp/figures 04 08 docs     # lessons 04 and 08 and the docs only
#   benchmarks/readme-figures.sh build /tmp/figures grader   # the grader's tables only
# Paths are relative to the repository root. It needs the course built (`cmake --build build`:
# the solutions' demos, the doctor, the test programs of the solutions and of the tuned versions)
# and ncu (lessons 04, 06, 08). A failing or missing command is recorded under its header and the
# others still run; the exit status is 1 if any failed. CMD_TIMEOUT (seconds, default 120) bounds
# each command (the grader's runs 600). COMMIT names the commit where git does not work. About 6
# minutes on an H100, half of it the grader's run of every solution check.
#
# The part "grader" (grader.txt) grades the exercises as they are (README.md's and docs/grading.md's
# sample output), the reference solutions and the tuned versions beside some of them (`stepwise
# grade --track solution|tuned`) and prints their tables: each README's "On an H100" table and its
# tuned version's figures, docs/grading.md's example table.
# Not here: docs/grading.md's timings of the grading loop (benchmarks/grading-loop.sh).
# shellcheck disable=SC2317  # the part_NN functions are called by name
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
build=${1:-build}
out=${2:-$build/readme-figures}
shift $(($# < 2 ? $# : 2))
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(00 01 02 03 04 05 06 07 08 09 10 11 12 13 docs grader)
mkdir -p "$out" || exit 2

b=$(printf '%q' "$build/bin")  # as the commands below show them in their headers
o=$(printf '%q' "$out")

if commit=$(git rev-parse --short=7 HEAD 2>/dev/null); then
  git diff --quiet HEAD 2>/dev/null || commit+=" (with uncommitted changes)"
else
  commit=${COMMIT:-unknown: no git here, and COMMIT is not set}
fi
gpu=$(nvidia-smi -i 0 --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/, /, driver /')
gpu=${gpu:-none found by nvidia-smi}

file='' ran=0 failed=0 statuses=''
run_cmd() {  # run_cmd "command line" [limit in s]: runs it (from the repository root), output under a header in $file
  local start status
  printf '\n### $ %s\n' "$1" >>"$file"
  start=$(date +%s%N)
  timeout -k 10 "${2:-${CMD_TIMEOUT:-120}}" bash -c "$1" >>"$file" 2>&1 </dev/null
  status=$?
  printf '### exit status %d (%s s)\n' "$status" "$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.1f", ns / 1e9 }')" >>"$file"
  ran=$((ran + 1))
  [ "$status" -eq 0 ] || { failed=$((failed + 1)); statuses+=", $(basename "${1%% *}") ($status)"; }
}

part_00() { run_cmd "$b/lesson00-demo-solution"; }  # the device query table
part_01() { run_cmd "$b/lesson01-demo-solution"; }
part_02() { run_cmd "$b/lesson02-demo-solution"; }  # 10M floats: CPU vs kernel, the pageable copy
part_03() {
  run_cmd "$b/lesson03-demo-solution --output $o/03-mandelbrot.png"  # 1536 x 1024, 1000 iterations
  run_cmd "$b/lesson03-demo-solution --size 384x256 --iterations 1000 --output $o/03-mandelbrot-384x256.png"
  run_cmd "cmp $o/03-mandelbrot-384x256.png docs/images/mandelbrot.png && echo same bytes as docs/images/mandelbrot.png"
}
part_04() {
  run_cmd "$b/lesson04-demo-solution"                   # the seed's 1000 x 1000 mesh
  run_cmd "$b/lesson04-demo-solution --size 4000x3000"  # twice: pageable copies vary
  run_cmd "$b/lesson04-demo-solution --size 4000x3000"
  run_cmd "ncu -k regex:mesh_distances -c 1 --section SpeedOfLight $b/lesson04-demo-solution --size 2000x2000"
}
part_05() { run_cmd "$b/lesson05-demo-solution --chunks 32"; }  # the copies, the pipeline and its timeline
part_06() {
  run_cmd "$b/lesson06-demo-solution"  # 1600 and 4096
  run_cmd "$b/lesson06-demo-solution --size 2048 --shape 257 129 67"
  run_cmd "ncu --clock-control none -k regex:tiled_kernel -c 1 --section ComputeWorkloadAnalysis --section WarpStateStats $b/lesson06-demo-solution --size 4096"
}
part_07() { run_cmd "$b/lesson07-demo-solution"; }  # the race, the sums of 2^26, CPU vs GPU by n
part_08() {
  run_cmd "$b/lesson08-demo-solution"
  run_cmd "ncu --kernel-name regex:'apply_rows_kernel|hermite_tiled_kernel' --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct $b/lesson08-demo-solution --rows 1048576 --members 1 --steps 1"
}
part_09() {
  run_cmd "$b/lesson09-demo-solution --points 268435456"
  run_cmd "$b/lesson09-demo-solution --points 1000000000 --seed 7"
}
part_10() { run_cmd "$b/lesson10-demo-solution"; }
part_11() {
  run_cmd "$b/lesson11-demo-solution --input assets/test-image.png --output $o/11-fft-convolution --crossover 2048x2048"
  run_cmd "cmp $o/11-fft-convolution-direct.png docs/images/11-fft-convolution-direct.png && cmp $o/11-fft-convolution-fft.png docs/images/11-fft-convolution-fft.png && echo same bytes as docs/images/11-fft-convolution-*.png"
}
part_12() { run_cmd "$b/lesson12-demo-solution"; }  # 2^25 floats: degrees, nvcc vs NVRTC, the cache
part_13() { run_cmd "$b/lesson13-demo-solution"; }
part_docs() { run_cmd "$b/stepwise-doctor"; }  # docs/setup.md
part_grader() {
  run_cmd "$b/stepwise grade" "${GRADE_TIMEOUT:-600}"  # the untouched exercises: README.md's sample
  run_cmd "$b/stepwise grade --track solution" "${GRADE_TIMEOUT:-600}"
  run_cmd "$b/stepwise table --track solution"
  run_cmd "$b/stepwise grade --track tuned" "${GRADE_TIMEOUT:-600}"
  run_cmd "$b/stepwise table --track tuned"
}

missing=()
for part in "${parts[@]}"; do
  case $part in
    docs) program=stepwise-doctor ;;
    grader) program=stepwise ;;
    *[!0-9]*|'') continue ;;
    *) program=$(printf 'lesson%02d-demo-solution' $((10#$part))) ;;
  esac
  [ -x "$build/bin/$program" ] || missing+=("$program")
done
[ ${#missing[@]} -eq 0 ] ||
  echo "not built (their commands will fail): ${missing[*]}; build them with: cmake --build $build --target ${missing[*]}"

any_failed=0
for part in "${parts[@]}"; do
  [[ $part =~ ^[0-9]+$ ]] && part=$(printf '%02d' $((10#$part)))
  declare -F "part_$part" >/dev/null || { echo "$part: no such part (00 to 13, docs or grader)" >&2; any_failed=1; continue; }
  file="$out/$part.txt" ran=0 failed=0 statuses='' start=$SECONDS
  {
    echo "# Stepwise CUDA, the figures the READMEs quote: $part (benchmarks/readme-figures.sh)"
    echo "# date:   $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "# commit: $commit"
    echo "# GPU:    $gpu"
    echo "# host:   $(nproc) CPU cores; build folder $build"
  } >"$file"
  "part_$part"
  [ "$failed" -eq 0 ] || any_failed=1
  echo "$part: $ran command(s), $failed failed${statuses:+: ${statuses#, }}, $((SECONDS - start)) s -> $file"
done
exit "$any_failed"
