# The kind of a check, from its suite's name: the one CMake reader of the rule, which must agree
# with the C++ one, grader/harness/include/grader/check_kind.h (grader::check_kind), test for test:
#   <Anything>Speed   speed        needs the GPU, runs alone (timings), has a minimum in
#                                  grader/requirements.txt
#   Cpu<Anything>     cpu          host code: runs without a GPU
#   Sanitizer         sanitizer    the lesson's checks again under compute-sanitizer: needs the GPU
#   anything else     correctness  a correctness check on the GPU
# Tested in the same order as check_kind.h (Sanitizer, then Cpu..., then ...Speed: a suite
# CpuFooSpeed is a cpu check). The self-tests grader/selftest/check_kind.cmake (this function) and
# CheckKind.AgreesWithTheTable in grader/runner/selftest (check_kind.h) read the same table,
# grader/selftest/check-kinds.txt: change the rule in both files and in that table. So are each
# kind's labels (stepwise_check_labels here, grader::check_labels there; their gpu or cpu label is
# grader::needs_gpu: the harness skips such a check where there is none).
#
# The GoogleTest filter that keeps the correctness checks only (grader::kCorrectnessChecksFilter in
# check_kind.h; the table's 'filter' line holds both to the same string).
set(STEPWISE_CORRECTNESS_CHECKS_FILTER "-*Speed.*:Cpu*.*:Sanitizer.*")

# stepwise_check_kind(<suite or Suite.Test> <out-var>): <out-var> = speed, cpu, sanitizer or
# correctness. The suite is what comes before the first '.'.
function(stepwise_check_kind check out)
  string(FIND "${check}" "." dot)
  if(dot EQUAL -1)
    set(suite "${check}")
  else()
    string(SUBSTRING "${check}" 0 ${dot} suite)
  endif()
  if(suite STREQUAL "Sanitizer")
    set(kind sanitizer)
  elseif(suite MATCHES "^Cpu")
    set(kind cpu)
  elseif(suite MATCHES "Speed$")
    set(kind speed)
  else()
    set(kind correctness)
  endif()
  set(${out} ${kind} PARENT_SCOPE)
endfunction()

# stepwise_check_labels(<suite or Suite.Test> <out-var>): the CTest labels of the check's kind, for
# AddLesson's discovery (the class build's check lists take them from grader::check_labels, through
# `stepwise list-checks`; the table's 'labels' lines hold the two to the same labels):
#   speed "speed;gpu", sanitizer "sanitizer;gpu", cpu "correctness;cpu", correctness "correctness;gpu"
function(stepwise_check_labels check out)
  stepwise_check_kind("${check}" kind)
  if(kind STREQUAL "cpu")
    set(labels "correctness;cpu")
  else()
    set(labels "${kind};gpu")
  endif()
  set(${out} "${labels}" PARENT_SCOPE)
endfunction()
