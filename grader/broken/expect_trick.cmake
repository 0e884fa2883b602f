# Runs a lesson's reference solution with one trick (STEPWISE_TRACE_TRICK, grader/trace.h): for a
# trace trick the grader plays a student's trick around every traced call whose rules the trick
# breaks; for a speed trick (skip-repeated, checked-only, hidden-work) on every timed run of the
# student's calls in the speed checks (grader::gpu_median_ms). Passes when the trick was applied
# somewhere and every check it was applied in failed saying so ("[ CAUGHT   ]", no
# "[ MISSED   ]"). Without a GPU it reports itself skipped.
# FILTER: the kind of checks the trick is played in, "correctness" for a trace trick, "speed" for a
# speed trick, whose GoogleTest filter the runner RUNNER gives (`stepwise check-filter <kind>`:
# grader/check_kind.h).
#   cmake -DPROGRAM=<solution's test program> -DTRICK=<name> -DFILTER=<kind> -DRUNNER=<bin/stepwise>
#         -P expect_trick.cmake
cmake_minimum_required(VERSION 3.24)
execute_process(COMMAND "${RUNNER}" check-filter "${FILTER}" OUTPUT_VARIABLE FILTER OUTPUT_STRIP_TRAILING_WHITESPACE
                COMMAND_ERROR_IS_FATAL ANY)
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
  message("${output}")
  message(FATAL_ERROR "the trick '${TRICK}' was applied in no check of '${FILTER}': for a trace trick, "
                      "add the rule it breaks to the checks (grader/trace.h) or drop the trick from the "
                      "lesson's add_lesson(... TRICKS); for a speed trick, time the student's call as a "
                      "grader::Workload with what_ran (grader/speed.h)")
endif()
message("OK: every check the trick '${TRICK}' was applied in failed, saying so")
