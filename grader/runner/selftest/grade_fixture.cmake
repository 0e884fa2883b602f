# Grades the fixture course (course-fixture/) with the runner, as a student's grade run would, and
# checks what it prints: lesson 01's compile error as its FAIL with file:line, lessons 00 and 02
# still graded, the crashed check reported, no build-tool error lines, a non-zero exit status; and
# the checks of lessons 03 and 04, run in one process per lesson, each with the verdict it gets
# alone: a check that never ends (03) or crashes (04) stops only itself (it FAILs as it would
# alone; the checks after it run in processes of their own and pass), the checks before it
# shared one process.
#   cmake -DRUNNER=<bin/stepwise> -DRUNNER_DIR=<grader/runner> -DWORK=<folder> -P grade_fixture.cmake
file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${RUNNER_DIR}/selftest/course-fixture" -B "${WORK}"
                        -DRUNNER_DIR=${RUNNER_DIR} -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE status OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the fixture course did not configure:\n${log}")
endif()
execute_process(COMMAND "${RUNNER}" --build "${WORK}" grade
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
execute_process(COMMAND "${RUNNER}" --build "${WORK}" table OUTPUT_VARIABLE table ERROR_VARIABLE table)
message("${out}\n${table}")
set(problems "")
if(NOT status EQUAL 1)
  string(APPEND problems "exit status ${status}, not 1\n")
endif()
foreach(expected
    "01-broken +- +does not compile: lessons/01-broken/exercise.cpp:[0-9]+: error: "
    "00-first +1/2"
    "02-crash +0/1"
    "03-hang +3/4"
    "04-abort +2/3"
    "next: lessons/00-first/README.md step 2")
  if(NOT out MATCHES "${expected}")
    string(APPEND problems "no line matches '${expected}'\n")
  endif()
endforeach()
foreach(forbidden "CMake Error" "\\*\\*\\*" "ninja: build stopped" "make(\\[[0-9]+\\])?: " "Error [0-9]")
  if(out MATCHES "${forbidden}")
    string(APPEND problems "the output holds '${forbidden}'\n")
  endif()
endforeach()
if(NOT table MATCHES "Crash.Early +FAIL +stopped without a result\n +-> stopped without a result \\(Subprocess aborted\\)")
  string(APPEND problems "the table does not show Crash.Early as stopped without a result\n")
endif()
foreach(expected
    "Hang.First +PASS +check 1 of its process"
    "Hang.Second +PASS +check 2 of its process"
    "Hang.Forever +FAIL +stopped without a result\n +-> stopped without a result \\(Timeout\\)"
    "Hang.After +PASS +check 1 of its process"
    "Abort.First +PASS +check 1 of its process"
    "Abort.Aborts +FAIL +stopped without a result\n +-> stopped without a result \\(Subprocess aborted\\)"
    "Abort.After +PASS +check 1 of its process")
  if(NOT table MATCHES "${expected}")
    string(APPEND problems "the table has no row matching '${expected}'\n")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "${problems}")
endif()
