# Runs the grader on an untouched exercise. Every check must fail as TODO, with the message
# "not implemented yet: lessons/<LESSON>/README.md step N"; none may pass or crash.
#   cmake -DPROGRAM=<lessonNN-tests> -DLESSON=<NN-slug> [-DFILTER=<gtest filter>] -P expect_todo.cmake
cmake_minimum_required(VERSION 3.24)
if(NOT FILTER)
  set(FILTER "*")
endif()
execute_process(COMMAND "${PROGRAM}" "--gtest_filter=${FILTER}" RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
string(REGEX MATCHALL "\\[  FAILED  \\] [^ \n]+ \\([0-9]+ ms\\)" failed "${output}")
string(REGEX MATCHALL "not implemented yet: lessons/${LESSON}/README\\.md step [0-9]+" todo "${output}")
string(REGEX MATCHALL "\\[       OK \\] [^\n]+" passed "${output}")
list(LENGTH failed failed_count)
list(LENGTH todo todo_count)
if(passed)
  message(FATAL_ERROR "the untouched exercise passes checks it should not:\n${passed}\n"
                      "Is lessons/${LESSON} still the exercise (with STEPWISE_TODO in each step)?")
endif()
if(NOT code MATCHES "^[01]$")
  message(FATAL_ERROR "${output}\nthe untouched exercise crashed the grader (${code}) instead of reporting TODO")
endif()
if(todo_count LESS failed_count)
  message(FATAL_ERROR "${output}\n${failed_count} checks failed but only ${todo_count} said "
                      "'not implemented yet: lessons/${LESSON}/README.md step N'")
endif()
if(output MATCHES "\\[  SKIPPED \\]")
  message("[  SKIPPED ] ${failed_count} checks reported TODO; the others were skipped (no GPU)")
  return()
endif()
message("OK: all ${failed_count} checks report TODO with the README step to read")
