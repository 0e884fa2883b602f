# Runs a grader test program built against a broken submission (see
# stepwise_add_broken_submission in cmake/AddLesson.cmake).
# Passes only when every selected check FAILS cleanly (no crash) and the output names the
# mistake (matches EXPECT). Without a GPU it reports itself skipped.
#   cmake -DPROGRAM=<test program> -DCHECKS=<gtest filter> -DEXPECT=<regex> -DSOURCE=<file> -P expect_failure.cmake
cmake_minimum_required(VERSION 3.24)
execute_process(COMMAND "${PROGRAM}" "--gtest_filter=${CHECKS}"
                RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(output MATCHES "\\[  SKIPPED \\]" AND NOT output MATCHES "\\[  FAILED  \\]")
  message("[  SKIPPED ] the checks were skipped (no GPU), so the broken submission was not tried")
  return()
endif()
if(NOT output MATCHES "\\[==========\\] [1-9][0-9]* tests? from")
  message(FATAL_ERROR "the filter '${CHECKS}' selected no check: fix the '// fails:' line of ${SOURCE}")
endif()
if(code STREQUAL "0" OR output MATCHES "\\[       OK \\]")
  message(FATAL_ERROR "the grader PASSED a broken submission on '${CHECKS}': that check cannot catch this mistake")
endif()
if(NOT code STREQUAL "1")
  message(FATAL_ERROR "the broken submission crashed the test program (${code}) instead of failing cleanly")
endif()
if(NOT output MATCHES "${EXPECT}")
  message(FATAL_ERROR "the check failed, but its message does not say '${EXPECT}' (the '// expect:' line of ${SOURCE})")
endif()
message("OK: the grader failed the broken submission, saying '${CMAKE_MATCH_0}'")
