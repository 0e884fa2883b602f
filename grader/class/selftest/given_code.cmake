# Given code (cmake/AddLesson.cmake, stepwise_split_lesson_sources): a lesson's source with no twin
# in solutions/ and no STEPWISE_TODO is compiled once and linked with every build of the lesson.
#   A. How a lesson's sources are sorted, in a made-up course of one CMake project (no compiler):
#      a source with a twin is the exercise's, one without a twin or STEPWISE_TODO is given, one
#      with a STEPWISE_TODO and no twin stops the configuration (the twin is missing).
#   B. A class build of lesson 13 (grader/class) for a student who sends the solution's
#      cub_calls.cpp (which calls the given cub_library.cu), the untouched scan.cu, and copies of
#      cub_library.cu and cub_library.h that do not compile: the lesson builds, with the course
#      build's given code, and the manifest lists both copies as ignored.
#   cmake -DRUNNER=<bin/stepwise> -DBUILD_DIR=<course build> -DSOURCE_DIR=<course> -DWORK=<folder>
#         -P given_code.cmake
cmake_minimum_required(VERSION 3.24)
file(REMOVE_RECURSE "${WORK}")
set(problems "")

# A. The made-up course: lesson 97 has an exercise file, two given files and a demo; lesson 96
# has a file with a step and no twin.
set(course "${WORK}/course")
file(WRITE "${course}/lessons/97-given/exercise.cu" "// TODO(step 1)\nSTEPWISE_TODO(1);\n")
file(WRITE "${course}/solutions/97-given/exercise.cu" "// written\n")
file(WRITE "${course}/lessons/97-given/library.cu" "// given: no twin, no step\n")
file(WRITE "${course}/lessons/97-given/helpers.cpp" "// given too\n")
file(WRITE "${course}/lessons/97-given/demo.cu" "int main() {}\n")
file(WRITE "${course}/lessons/96-no-twin/untwinned.cu" "STEPWISE_TODO(1);\n")
file(WRITE "${course}/CMakeLists.txt" "\
cmake_minimum_required(VERSION 3.24)
project(GivenCodeFixture NONE)
include(\"${SOURCE_DIR}/cmake/AddLesson.cmake\")
file(GLOB sources RELATIVE \"\${PROJECT_SOURCE_DIR}/lessons/\${LESSON}\" \"\${PROJECT_SOURCE_DIR}/lessons/\${LESSON}/*.cu\"
     \"\${PROJECT_SOURCE_DIR}/lessons/\${LESSON}/*.cpp\")
list(REMOVE_ITEM sources demo.cu)
stepwise_split_lesson_sources(\${LESSON} \"\${sources}\" exercise given)
stepwise_exercise_files(\${LESSON} \"\${exercise}\" files)
stepwise_require_solution_twins(\${LESSON} \"\${files}\")
message(STATUS \"exercise: \${exercise}; given: \${given}\")
")
foreach(case "97-given|exercise: exercise.cu; given: helpers.cpp;library.cu"
             "96-no-twin|solutions/96-no-twin/untwinned.cu is missing: every exercise file with a step")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 lesson)
  list(GET case 1 expected)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${course}" -B "${WORK}/course-build-${lesson}" -DLESSON=${lesson}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REPLACE "\n  " " " out_joined "${out}")  # CMake wraps an error message's lines
  string(FIND "${out_joined}" "${expected}" at)
  if(at EQUAL -1)
    string(APPEND problems "A, lesson ${lesson}: the configuration does not say '${expected}':\n${out}\n")
  endif()
  if(lesson STREQUAL "96-no-twin" AND status EQUAL 0)
    string(APPEND problems "A: a file with a STEPWISE_TODO and no twin was accepted\n")
  endif()
endforeach()

# B. The class of one student.
set(lesson 13-prefix-sums)
set(sent "${WORK}/class/gia-given/lessons/${lesson}")
file(MAKE_DIRECTORY "${sent}")
file(COPY "${SOURCE_DIR}/solutions/${lesson}/cub_calls.cpp" "${SOURCE_DIR}/lessons/${lesson}/scan.cu"
     DESTINATION "${sent}")
foreach(file cub_library.cu cub_library.h)
  file(READ "${SOURCE_DIR}/lessons/${lesson}/${file}" text)
  file(WRITE "${sent}/${file}" "#error \"the student's copy of the given ${file} was compiled\"\n${text}")
endforeach()
execute_process(COMMAND "${RUNNER}" --build "${BUILD_DIR}" class "${WORK}/class" --out "${WORK}/out"
                        --lessons 13 --step prepare
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
set(student "${WORK}/out/build/students/gia-given")
if(NOT status EQUAL 0)
  string(APPEND problems "B: stepwise class --step prepare exited with ${status}\n")
endif()
if(NOT EXISTS "${student}/bin/lesson13-tests")
  file(GLOB_RECURSE logs "${WORK}/out/logs/*.log")
  set(log_text "")
  foreach(log IN LISTS logs)
    file(READ "${log}" text)
    string(APPEND log_text "---- ${log}\n${text}\n")
  endforeach()
  string(APPEND problems "B: the student's lesson 13 did not build:\n${log_text}\n")
endif()
if(EXISTS "${student}/manifest.json")
  file(READ "${student}/manifest.json" manifest)
  string(JSON ignored ERROR_VARIABLE no_ignored GET "${manifest}" ignored)
  foreach(file cub_library.cu cub_library.h)
    string(FIND "${ignored}" "\"lessons/${lesson}/${file}\"" at)
    if(at EQUAL -1)
      string(APPEND problems "B: manifest.json does not list lessons/${lesson}/${file} as ignored: ${ignored}\n")
    endif()
  endforeach()
  string(JSON used ERROR_VARIABLE no_used GET "${manifest}" lessons ${lesson} used)
  if(NOT used MATCHES "cub_calls.cpp" OR NOT used MATCHES "scan.cu" OR used MATCHES "cub_library")
    string(APPEND problems "B: manifest.json's files used are not cub_calls.cpp and scan.cu: ${used}\n")
  endif()
else()
  string(APPEND problems "B: no manifest.json in ${student}\n")
endif()
if(problems)
  message(FATAL_ERROR "${problems}")
endif()
message(STATUS "given code is sorted from the exercise, and a class build takes it from the course")
