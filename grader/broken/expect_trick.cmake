# Runs a lesson's reference solution with one trace trick (STEPWISE_TRACE_TRICK, grader/trace.h):
# the grader plays a student's trick around every traced call whose rules the trick breaks. Passes
# when the trick was applied somewhere and every check it was applied in failed saying so
# ("[ CAUGHT   ]", no "[ MISSED   ]"). Without a GPU it reports itself skipped.
# FILTER: the GoogleTest filter of the correctness checks (STEPWISE_CORRECTNESS_CHECKS_FILTER).
#   cmake -DPROGRAM=<solution's test program> -DTRICK=<name> -DFILTER=<filter> -P expect_trick.cmake
cmake_minimum_required(VERSION 3.24)
set(ENV{STEPWISE_TRACE_TRICK} "${TRICK}")
execute_process(COMMAND "${PROGRAM}" "--gtest_filter=${FILTER}"
                RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
string(REGEX MATCHALL "\\[ (CAUGHT  |MISSED  |TRICK   ) \\][^\n]*" lines "${output}")
string(REPLACE ";" "\n" lines "${lines}")
message("${lines}")
if(output MATCHES "could not see what ran")
  message("[  SKIPPED ] the grader could not trace here (CUPTI busy or missing)")
  return()
endif()
if(output MATCHES "\\[  SKIPPED \\]" AND NOT output MATCHES "TRICK   \\]")
  message("[  SKIPPED ] the checks were skipped (no GPU), so the trick was not tried")
  return()
endif()
if(output MATCHES "\\[ MISSED   \\]")
  message("${output}")
  message(FATAL_ERROR "the grader did not catch the trick '${TRICK}' in every check it was applied in (MISSED above)")
endif()
if(NOT output MATCHES "\\[ CAUGHT   \\]")
  message(FATAL_ERROR "no check of this lesson carries the rule '${TRICK}' breaks: add the rule to the "
                      "checks (grader/trace.h) or drop the trick from the lesson's add_lesson(... TRICKS)")
endif()
message("OK: every check the trick '${TRICK}' was applied in failed, saying what ran")
