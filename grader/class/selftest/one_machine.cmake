# Grades the sample class (make_class.cmake) on this machine with `stepwise class`, lessons 00
# and 01, and checks: the gradebook field by field (expected-cpu.csv: without a GPU every GPU
# check is SKIP, so it holds the compile results and lesson 01's CPU check), the reports (the
# compiler's first error with file:line, the check killed at the time limit, the files ignored and
# the file written), and that a second run resumes: every student is already graded.
#   cmake -DRUNNER=<bin/stepwise> -DBUILD_DIR=<course build> -DSOURCE_DIR=<course> -DWORK=<folder>
#         -P one_machine.cmake
cmake_minimum_required(VERSION 3.24)
execute_process(COMMAND "${CMAKE_COMMAND}" -DSOURCE_DIR=${SOURCE_DIR} -DCLASS=${WORK}/class
                        -P "${CMAKE_CURRENT_LIST_DIR}/make_class.cmake" COMMAND_ERROR_IS_FATAL ANY)
file(REMOVE_RECURSE "${WORK}/out")
# --out as the README's example gives it: relative, from the course's folder (and inside the
# course when the build folder is): a compile error must still name the student's file.
file(RELATIVE_PATH out_dir "${SOURCE_DIR}" "${WORK}/out")
set(grade "${RUNNER}" --build "${BUILD_DIR}" class "${WORK}/class" --out "${out_dir}" --lessons 00 01 --time-limit 10)
execute_process(COMMAND ${grade} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out
                WORKING_DIRECTORY "${SOURCE_DIR}")
message("${out}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "stepwise class exited with ${status}")
endif()
string(FIND "${out}" "folder 'fay \"quoted\" name' was not graded" refused_at)
if(refused_at EQUAL -1)
  message(FATAL_ERROR "the folder named with quotes and spaces is not reported as not graded")
endif()
# A student with nothing to run is told so, not "already graded".
string(FIND "${out}" "cy-no-compile: no checks to run: 00-hello-gpu does not compile, 01-vector-add not sent" nothing_at)
if(nothing_at EQUAL -1)
  message(FATAL_ERROR "cy-no-compile (nothing compiled) is not reported as having no checks to run")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -DEXPECTED=${CMAKE_CURRENT_LIST_DIR}/expected-cpu.csv
                        -DACTUAL=${WORK}/out/gradebook.csv -P "${CMAKE_CURRENT_LIST_DIR}/compare_gradebook.cmake"
                COMMAND_ERROR_IS_FATAL ANY)

set(problems "")
foreach(expectation
    "cy-no-compile|does not compile\n\nThe compiler's first error \\(cy-no-compile/lessons/00-hello-gpu/hello_gpu.cu:[0-9]+\\)"
    "cy-no-compile|```\ncy-no-compile/lessons/00-hello-gpu/hello_gpu.cu\\([0-9]+\\): error"
    "cy-no-compile|error: expected a \";\""
    "dee-hangs|CpuVectorize.CpuTargetMatchesReference \\(FAIL\\): killed at the time limit of 10 s"
    "ben-wrong|CpuVectorize.CpuTargetMatchesReference \\(FAIL\\)"
    "ben-wrong|in its working folder\\):\n\n- note.txt"
    "eve-extras|Ignored[^\n]*\n\n- grader/requirements.txt\n- grader/tests/00-hello-gpu.cu\n- lessons/00-hello-gpu/hello_gpu.h\n- lessons/00-hello-gpu/my_extra_test.cu"
    "ada-correct|CpuVectorize.CpuTargetMatchesReference \\| PASS"
    "ada-correct|## Flags\n\nNone"
    "fox-forges|CpuVectorize.CpuTargetMatchesReference \\(FAIL\\): refused: a record was written, but GoogleTest's report of the run is missing"
    "fox-forges|- lessons/01-vector-add/vector_add.cu:16: runs before or after main \\(__attribute__\\(\\(constructor\\)\\)\\)"
    "gil-exits-early|CpuVectorize.CpuTargetMatchesReference \\(FAIL\\): ended with exit status 0 without a result"
    "gil-exits-early|- lessons/01-vector-add/vectorize.cuh:18: ends the process \\(exit\\)"
    "hal-writes-other|CpuVectorize.CpuTargetMatchesReference \\| PASS"
    "hal-writes-other|- lessons/01-vector-add/vectorize.cuh:19: writes a file \\(fopen \"w\"\\)")
  string(FIND "${expectation}" "|" bar)
  string(SUBSTRING "${expectation}" 0 ${bar} student)
  math(EXPR bar "${bar} + 1")
  string(SUBSTRING "${expectation}" ${bar} -1 pattern)
  file(READ "${WORK}/out/reports/${student}.md" report)
  if(NOT report MATCHES "${pattern}")
    string(APPEND problems "reports/${student}.md does not match '${pattern}':\n${report}\n")
  endif()
endforeach()
file(READ "${WORK}/out/gradebook.json" json)
string(JSON state GET "${json}" students 2 lessons 00-hello-gpu state)
if(NOT state STREQUAL "does not compile")
  string(APPEND problems "gradebook.json: cy-no-compile's lesson 00 is '${state}'\n")
endif()
string(JSON where ERROR_VARIABLE no_where GET "${json}" students 2 lessons 00-hello-gpu compile_error where)
if(NOT where MATCHES "^cy-no-compile/lessons/00-hello-gpu/hello_gpu.cu:[0-9]+$")
  string(APPEND problems "gradebook.json: cy-no-compile's compile error is at '${where}'\n")
endif()
string(JSON flag ERROR_VARIABLE no_flag GET "${json}" students 5 flags 0 what)
if(NOT flag STREQUAL "runs before or after main (__attribute__((constructor)))")
  string(APPEND problems "gradebook.json: fox-forges' first flag is '${flag}'\n")
endif()

# Again: nothing to do, every student is already graded.
execute_process(COMMAND ${grade} --step check RESULT_VARIABLE status OUTPUT_VARIABLE again ERROR_VARIABLE again
                WORKING_DIRECTORY "${SOURCE_DIR}")
string(REGEX MATCHALL "[a-z-]+: already graded" skipped "${again}")
list(LENGTH skipped count)
if(NOT status EQUAL 0 OR NOT count EQUAL 7 OR again MATCHES "checking " OR NOT again MATCHES "cy-no-compile: no checks to run")
  string(APPEND problems "a second run did not resume (7 students already graded and cy-no-compile with no checks to run expected):\n${again}\n")
endif()
if(problems)
  message(FATAL_ERROR "${problems}")
endif()
