# Grades the fixture course (course-fixture/) with the runner, as a student's grade run would, and
# checks what it prints: lesson 01's compile error as its FAIL with file:line, lessons 00 and 02
# still graded, lesson 02's checks that end without a record (run in processes of their own, as
# CTest would: a crash, a segfault, a hang past its TIMEOUT, an exit status; a skip by
# SKIP_RETURN_CODE is no failure) each reported with how it stopped, no build-tool error lines, a
# non-zero exit status, STEPWISE_RUN_LOG's start and end lines; and
# the checks of lessons 03 and 04, run in one process per lesson, each with the verdict it gets
# alone: a check that never ends (03) or crashes (04) stops only itself (it FAILs as it would
# alone; the checks after it run in processes of their own and pass), the checks before it
# shared one process, which had one hardware work queue (CUDA_DEVICE_MAX_CONNECTIONS=1, for
# checks that time nothing) where the processes of their own after it have CUDA's default; and in
# 05 a check that times its work ends its process with one work queue before it starts, and runs
# with the checks after it in one process with CUDA's default queues.
# With -DGENERATOR=Ninja the fixture builds with Ninja, which the runner then runs itself (course.h)
# rather than through cmake --build.
#   cmake -DRUNNER=<bin/stepwise> -DRUNNER_DIR=<grader/runner> -DWORK=<folder> [-DGENERATOR=Ninja] -P grade_fixture.cmake
file(REMOVE_RECURSE "${WORK}" "${WORK}-source")
# A copy of the fixture's sources: the last part deletes a STEPWISE_TODO line, as a student would.
file(COPY "${RUNNER_DIR}/selftest/course-fixture/" DESTINATION "${WORK}-source")
set(generator "")
if(GENERATOR)
  set(generator -G "${GENERATOR}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${WORK}-source" -B "${WORK}" ${generator}
                        -DRUNNER_DIR=${RUNNER_DIR} -DSTEPWISE_RUNNER=${RUNNER} -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE status OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the fixture course did not configure:\n${log}")
endif()
# One process at a time (STEPWISE_JOBS=1): each lesson's checks share one process on any machine.
execute_process(COMMAND "${CMAKE_COMMAND}" -E env STEPWISE_JOBS=1 STEPWISE_RUN_LOG=${WORK}/run.log "${RUNNER}" --build "${WORK}" grade
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
execute_process(COMMAND "${RUNNER}" --build "${WORK}" table OUTPUT_VARIABLE table ERROR_VARIABLE table)
message("${out}\n${table}")
set(problems "")
file(READ "${WORK}/stepwise-course.json" course_file)
if(GENERATOR STREQUAL "Ninja" AND NOT course_file MATCHES "\"ninja\": \"[^\"]+\"")
  string(APPEND problems "the course file names no ninja for the runner to run:\n${course_file}\n")
endif()
if(NOT status EQUAL 1)
  string(APPEND problems "exit status ${status}, not 1\n")
endif()
foreach(expected
    "01-broken +- +does not compile: lessons/01-broken/exercise.cpp:[0-9]+: error: "
    "00-first +1/2"
    "02-crash +0/4"
    "03-hang +3/4"
    "04-abort +2/3"
    "05-times +3/3"
    "06-memory +2/2"
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
file(READ "${WORK}/run.log" run_log)
foreach(expected "start 02-crash/exercise/Crash.Segfault\n" "end   02-crash/exercise/Crash.Segfault, SegFault\n"
                 "end   02-crash/exercise/Crash.Skips, done\n" "end   02-crash/exercise/Crash.Hangs, Timeout\n")
  string(FIND "${run_log}" "${expected}" at)
  if(at EQUAL -1)
    string(APPEND problems "STEPWISE_RUN_LOG has no line '${expected}':\n${run_log}\n")
  endif()
endforeach()
if(NOT table MATCHES "Crash.Early +FAIL +stopped without a result\n +-> stopped without a result \\(Subprocess aborted\\)")
  string(APPEND problems "the table does not show Crash.Early as stopped without a result\n")
endif()
if(table MATCHES "Crash.Skips")
  string(APPEND problems "the check skipped by its SKIP_RETURN_CODE has a row of its own\n")
endif()
foreach(expected
    "Crash.Segfault +FAIL +stopped without a result\n +-> stopped without a result \\(SegFault\\)"
    "Crash.Hangs +FAIL +stopped without a result\n +-> stopped without a result \\(Timeout\\)"
    "Crash.Exits +FAIL +stopped without a result\n +-> stopped without a result \\(Failed, exit status 3\\)"
    "Hang.First +PASS +check 1 of its process, one work queue"
    "Hang.Second +PASS +check 2 of its process, one work queue"
    "Hang.Forever +FAIL +stopped without a result\n +-> stopped without a result \\(Timeout\\)"
    "Hang.After +PASS +check 1 of its process\n"
    "Abort.First +PASS +check 1 of its process, one work queue"
    "Abort.Aborts +FAIL +stopped without a result\n +-> stopped without a result \\(Subprocess aborted\\)"
    "Abort.After +PASS +check 1 of its process\n"
    "Times.First +PASS +check 1 of its process, one work queue"
    "Times.Measures +PASS +check 1 of its process\n"
    "Times.After +PASS +check 2 of its process\n"
    "Memory.Holds +PASS +check 1 of its process, one work queue"
    "Memory.Shares +PASS +check 2 of its process, one work queue")
  if(NOT table MATCHES "${expected}")
    string(APPEND problems "the table has no row matching '${expected}'\n")
  endif()
endforeach()
# Lessons 05 and 06 graded again, their records now saying which checks held the GPU alone: each
# such check first, in a process of its own, with one work queue only where it held the GPU for
# its memory and timed nothing.
execute_process(COMMAND "${CMAKE_COMMAND}" -E env STEPWISE_JOBS=1 "${RUNNER}" --build "${WORK}" grade 05 06
                OUTPUT_VARIABLE regraded ERROR_VARIABLE regraded)
execute_process(COMMAND "${RUNNER}" --build "${WORK}" table OUTPUT_VARIABLE table ERROR_VARIABLE table)
foreach(expected
    "Times.First +PASS +check 1 of its process, one work queue"
    "Times.Measures +PASS +check 1 of its process\n"
    "Times.After +PASS +check 2 of its process, one work queue"
    "Memory.Holds +PASS +check 1 of its process, one work queue"
    "Memory.Shares +PASS +check 1 of its process, one work queue")
  if(NOT table MATCHES "${expected}")
    string(APPEND problems "graded again, the table has no row matching '${expected}':\n${regraded}\n${table}\n")
  endif()
endforeach()
# Graded again with nothing built since: the TODO check keeps its record without running, the
# others run again. Built again, it still keeps it while its STEPWISE_TODO(2) line is in the code;
# once that line is deleted it runs again.
execute_process(COMMAND "${CMAKE_COMMAND}" -E env STEPWISE_JOBS=1 "${RUNNER}" --build "${WORK}" grade 00
                OUTPUT_VARIABLE again ERROR_VARIABLE again)
execute_process(COMMAND "${CMAKE_COMMAND}" -E touch "${WORK}/lesson00-tests")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env STEPWISE_JOBS=1 "${RUNNER}" --build "${WORK}" grade 00
                OUTPUT_VARIABLE rebuilt ERROR_VARIABLE rebuilt)
set(exercise "${WORK}-source/lessons/00-first/exercise.cpp")
file(READ "${exercise}" code)
string(REPLACE "  STEPWISE_TODO(2);\n" "" code "${code}")
file(WRITE "${exercise}" "${code}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env STEPWISE_JOBS=1 "${RUNNER}" --build "${WORK}" grade 00
                OUTPUT_VARIABLE written ERROR_VARIABLE written)
file(STRINGS "${WORK}/results/runs.txt" runs)
list(FILTER runs INCLUDE REGEX "^Steps\\.")
set(second ${runs})
list(FILTER second INCLUDE REGEX "Second")
list(LENGTH second second)
list(LENGTH runs all)
if(NOT second EQUAL 2 OR NOT all EQUAL 6)
  string(APPEND problems "lesson 00's TODO check ran ${second} times and both checks ${all}, not 2 and 6 (a TODO "
                         "kept while its program is unchanged or its STEPWISE_TODO line is in the code, run again "
                         "once the line is gone): ${runs}\n")
endif()
if(NOT again MATCHES "00-first +1/2" OR NOT rebuilt MATCHES "00-first +1/2")
  string(APPEND problems "grading lesson 00 again did not give 1/2:\n${again}\n${rebuilt}\n")
endif()
if(problems)
  message(FATAL_ERROR "${problems}")
endif()
