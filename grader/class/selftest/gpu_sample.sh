#!/usr/bin/env bash
# The sample class graded on a GPU machine (the GPU half of grader/class/selftest): ada-correct
# sends the reference solutions of lessons 00-04, the other students what grader/tests/fixtures/
# class holds. Prints the gradebook and each student's time; the whole run's logs are under
# <build>/class-gpu-sample/out (packed into $OUT/class-gpu-sample.tar.gz when OUT is set).
#   grader/class/selftest/gpu_sample.sh [<configured course build>, default build] [stepwise class options]
# (e.g. --skip sanitizer for a shorter run; TIME_LIMIT=<seconds per check>, default 20)
# Expected verdicts: ada-correct passes every check of 00-04; ben-wrong fails lesson 01's
# CpuVectorize and its grid-stride checks (the tail) and passes the rest; cy-no-compile: 00 does
# not compile, 01 missing; dee-hangs: the checks that call vector_add (VectorAdd.OneThreadPerElement
# MatchesCpu, VectorAddSpeed.OneThreadPerElement and .FasterThanOneCpuThread, Sanitizer.Memcheck)
# and CpuVectorize killed at the time limit, the grid-stride, GPU vectorize and machine-code checks
# pass (the GPU usable after each kill), 5 of 10; eve-extras: lesson 00 as ada-correct; fox-forges (a constructor
# writes a PASS record for the check and _exit(0)s before main): every check of 01 FAIL "refused:
# a record was written, but GoogleTest's report of the run is missing", flagged (constructor,
# getenv, /proc, fopen "w", _exit); gil-exits-early (exit(0) in vector_add, the grid-stride add and
# vectorize's CPU target): those checks and CpuMachineCode (which calls vector_add with n = 0)
# FAIL "ended with exit status 0 without a result", the GPU
# vectorize checks pass, flagged (exit), and its Sanitizer.Memcheck FAILs (the checks did not run
# to their end under compute-sanitizer); hal-writes-other (vectorize right, its CPU target writes
# a file into ada-correct's folder; vector_add.cu not sent): the vectorize checks pass, the
# vector_add checks and CpuMachineCode TODO, flagged (fopen "w"). No flags for ada-correct, cy, dee or eve; ben's
# one flag is its note.txt. Every student's flags are in the gradebook's flags column.
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${1:-build}
[ $# -gt 0 ] && shift
work="$build/class-gpu-sample"
lessons="00-hello-gpu|01-vector-add|02-elementwise-exp|03-mandelbrot|04-gpu-mesh"
cmake -DSOURCE_DIR="$PWD" -DCLASS="$work/class" -DLESSONS="$lessons" -P grader/class/selftest/make_class.cmake
cmake --build "$build" --parallel "$(nproc)" --target stepwise >/dev/null
[ -n "${OUT:-}" ] && trap 'tar -czf "$OUT/class-gpu-sample.tar.gz" -C "$work" out/gradebook.csv out/gradebook.json out/reports out/logs 2>/dev/null' EXIT
start=$(date +%s)
"$build/bin/stepwise" --build "$build" class "$work/class" --out "$work/out" --lessons 00 01 02 03 04 \
  --time-limit "${TIME_LIMIT:-20}" --fresh "$@"
echo "wall time: $(( $(date +%s) - start )) s"
echo "== gradebook.csv"
cat "$work/out/gradebook.csv"
echo "== seconds of checks per student"
python3 - "$work/out/gradebook.json" <<'PY'
import json, sys
for s in json.load(open(sys.argv[1]))["students"]:
    print("%-17s %7.1f s  %d/%d pass, %d skipped, %d flags" % (s["student"], s["seconds"], s["passed"], s["of"], s["skipped"], len(s.get("flags", []))))
PY
