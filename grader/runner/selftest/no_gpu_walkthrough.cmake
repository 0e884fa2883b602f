# Issue 29's walk-through on a machine without a GPU (its test runs with the GPUs hidden, so it
# holds on a GPU machine too): a student's copy of lessons 00 and 01 (no-gpu-course/), graded with
# `stepwise grade NN` after each thing the student writes, and what `stepwise` prints checked:
#   A. untouched:               `grade 00` reports lesson 00, its checks not run (no GPU), and
#                               next: lesson 00 step 1
#   B. lesson 00 written:       `grade 00`: its GPU checks SKIP (none FAIL or TODO), lesson 00
#                               waits for a GPU, next: lesson 01 step 1
#   C. lesson 01 step 1 written: `grade 01` reports lesson 01 (not 00), its CPU check runs
#                               (CpuVectorize, step 3: TODO), step 1 waits for a GPU, next: lesson
#                               01 step 2
#   cmake -DRUNNER=<bin/stepwise> -DCOURSE_BUILD=<course build> -DSOURCE_DIR=<course>
#         -DWORK=<folder> -P no_gpu_walkthrough.cmake
cmake_minimum_required(VERSION 3.24)
set(copy "${WORK}/course")
set(build "${copy}/build")
file(REMOVE_RECURSE "${WORK}")
foreach(lesson 00-hello-gpu 01-vector-add)
  file(COPY "${SOURCE_DIR}/lessons/${lesson}" DESTINATION "${copy}/lessons")
endforeach()
configure_file("${CMAKE_CURRENT_LIST_DIR}/no-gpu-course/CMakeLists.txt" "${copy}/CMakeLists.txt" COPYONLY)
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${copy}" -B "${build}" -DSTEPWISE_COURSE_BUILD=${COURSE_BUILD}
                RESULT_VARIABLE status OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the student's copy did not configure:\n${log}")
endif()
# The harness compiled for the course build writes records to that build unless told otherwise.
set(ENV{STEPWISE_RESULTS_DIR} "${build}/results/exercise")

set(problems "")
# grade(<step> <lesson> <output variable>): `stepwise grade <lesson>`, printed under the step's name.
function(grade step lesson out)
  execute_process(COMMAND "${RUNNER}" --build "${build}" grade ${lesson}
                  RESULT_VARIABLE status OUTPUT_VARIABLE text ERROR_VARIABLE text)
  message("---- ${step}: stepwise grade ${lesson} (exit status ${status})\n${text}")
  if(NOT status MATCHES "^[01]$")
    set(problems "${problems}${step}: exit status ${status}\n" PARENT_SCOPE)
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
# expect(<step> <text> MATCH <regex>... NO <regex>...)
function(expect step text)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "" "MATCH;NO")
  set(found "")
  foreach(pattern IN LISTS ARG_MATCH)
    if(NOT text MATCHES "${pattern}")
      string(APPEND found "${step}: no line matches '${pattern}'\n")
    endif()
  endforeach()
  foreach(pattern IN LISTS ARG_NO)
    if(text MATCHES "${pattern}")
      string(APPEND found "${step}: the output holds '${CMAKE_MATCH_0}' (matching '${pattern}')\n")
    endif()
  endforeach()
  set(problems "${problems}${found}" PARENT_SCOPE)
endfunction()

# A. The untouched exercises.
grade("A (untouched)" 00 out)
expect("A" "${out}"
  MATCH "\n00-hello-gpu +[0-9]+/[0-9]+ +[1-9][0-9]* not run \\(no GPU\\)\n"
        "steps whose STEPWISE_TODO line is still in the code: 1, 2, 3\n"
        "\nnext: lessons/00-hello-gpu/README\\.md step 1 "
  NO "01-vector-add" "[1-9][0-9]* FAIL" "written, waiting for a GPU")

# B. Lesson 00 written: the solution's files in place of the exercise's.
# (configure_file, not file(COPY): a copy keeps the file's time, which the build would not see as new)
file(GLOB written RELATIVE "${SOURCE_DIR}/solutions/00-hello-gpu" "${SOURCE_DIR}/solutions/00-hello-gpu/*")
foreach(file IN LISTS written)
  configure_file("${SOURCE_DIR}/solutions/00-hello-gpu/${file}" "${copy}/lessons/00-hello-gpu/${file}" COPYONLY)
endforeach()
grade("B (lesson 00 written)" 00 out)
expect("B" "${out}"
  MATCH "\n00-hello-gpu +[0-9]+/[0-9]+ +[1-9][0-9]* not run \\(no GPU\\)\n"
        "\nexercise: [0-9]+ of [0-9]+ checks pass \\(0 FAIL, 0 TODO, [1-9][0-9]* SKIP\\)\n"
        "\nwritten, waiting for a GPU to check: 00-hello-gpu\n"
        "\nnext: lessons/01-vector-add/README\\.md step 1 "
  NO "01-vector-add +" "next: lessons/00-hello-gpu" "steps whose STEPWISE_TODO")

# C. Lesson 01's step 1 written: the solution's step-1 code (from its first line after the
# includes to the end of vector_add) in place of the exercise's (add_kernel to the end of the
# function holding STEPWISE_TODO(1)); steps 2 and 3 untouched.
file(READ "${copy}/lessons/01-vector-add/vector_add.cu" exercise)
file(READ "${SOURCE_DIR}/solutions/01-vector-add/vector_add.cu" solution)
string(FIND "${exercise}" "__global__ void add_kernel(" from)
set(todo_end "  STEPWISE_TODO(1);\n}\n")
string(FIND "${exercise}" "${todo_end}" to)
string(FIND "${solution}" "namespace {" code_from)
string(FIND "${solution}" "\n// Step 2" code_to)
if(from EQUAL -1 OR to LESS from OR code_from EQUAL -1 OR code_to LESS code_from)
  message(FATAL_ERROR "lesson 01's step 1 is no longer where this test looks for it (add_kernel up to "
                      "STEPWISE_TODO(1) in the exercise, 'namespace {' up to '// Step 2' in the solution)")
endif()
string(LENGTH "${todo_end}" skip)
math(EXPR to "${to} + ${skip}")
math(EXPR code_length "${code_to} - ${code_from} + 1")
string(SUBSTRING "${exercise}" 0 ${from} before)
string(SUBSTRING "${exercise}" ${to} -1 after)
string(SUBSTRING "${solution}" ${code_from} ${code_length} step1)
file(WRITE "${copy}/lessons/01-vector-add/vector_add.cu" "${before}${step1}${after}")
grade("C (lesson 01 step 1 written)" 01 out)
expect("C" "${out}"
  MATCH "\n01-vector-add +[0-9]+/[0-9]+ +[1-9][0-9]* not run \\(no GPU\\)\n"
        "\n  step 3  TODO  CpuVectorize\\.CpuTargetMatchesReference\n"
        "\nwritten, waiting for a GPU to check: 00-hello-gpu, 01-vector-add step 1\n"
        "\nnext: lessons/01-vector-add/README\\.md step 2 "
  NO "\n00-hello-gpu +" "[1-9][0-9]* FAIL" "step 1 +(TODO|FAIL)")

if(problems)
  message(FATAL_ERROR "${problems}")
endif()
