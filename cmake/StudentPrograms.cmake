# Building a student's files on top of a course build: the class build (grader/class) and the
# student's copy of the no-GPU walk-through (grader/runner/selftest/no-gpu-course) compile only
# the student's files, and link them with the checks, harness and common library that the course
# build (STEPWISE_COURSE_BUILD, exported by cmake/ClassExport.cmake) already compiled. Such a
# project includes <course build>/class-export/course.cmake, then this file, and calls:
#   stepwise_use_course_toolchain()   before project(): the course build's compilers, CUDA
#                                     architectures and build type (the objects must link)
#   project(... LANGUAGES CXX CUDA)
#   stepwise_use_course_targets()     after it: C++/CUDA 17, testing, and the course build's
#                                     compiled targets under the names cmake/AddLesson.cmake links
#   stepwise_add_student_program(...) per lesson (and student)

macro(stepwise_use_course_toolchain)
  set(CMAKE_CUDA_COMPILER "${STEPWISE_COURSE_CUDA_COMPILER}")
  set(CMAKE_CXX_COMPILER "${STEPWISE_COURSE_CXX_COMPILER}")
  set(CMAKE_CUDA_ARCHITECTURES "${STEPWISE_COURSE_CUDA_ARCHITECTURES}" CACHE STRING "as the course build")
  set(CMAKE_BUILD_TYPE "${STEPWISE_COURSE_BUILD_TYPE}" CACHE STRING "as the course build")
endmacro()

macro(stepwise_use_course_targets)
  set(CMAKE_CXX_STANDARD 17)
  set(CMAKE_CXX_STANDARD_REQUIRED ON)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  enable_testing()
  stepwise_find_course_dependencies()
  add_library(stepwise::common ALIAS stepwise_built::stepwise_common)
  add_library(stepwise::warnings ALIAS stepwise_built::stepwise_warnings)
  add_library(grader::harness ALIAS stepwise_built::grader_harness)
  include("${STEPWISE_COURSE_SOURCE_DIR}/cmake/AddLesson.cmake")
endmacro()

# stepwise_add_student_program(<program> LESSON <NN-slug> DIR <folder> TRACK <track> [COURSE_HEADERS])
# The lesson's test program <program>, as add_lesson builds lessonNN-tests, from the lesson's
# exercise files in <folder> (the student's): its sources compiled into <program>-code, linked with
# the checks and the given code (never a student's copy of it) that the course build compiled. A
# lesson whose exercise includes a header the student completes (a template) has its checks
# compiled again with the header in <folder> (<program>-checks), unless COURSE_HEADERS says that
# header is the course's, untouched.
function(stepwise_add_student_program program)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "COURSE_HEADERS" "LESSON;DIR;TRACK" "")
  string(SUBSTRING "${ARG_LESSON}" 0 2 nn)
  set(libraries ${STEPWISE_LESSON_${nn}_LIBRARIES})
  set(checks stepwise_built::lesson${nn}-checks-exercise)
  if(NOT ARG_COURSE_HEADERS AND NOT STEPWISE_LESSON_${nn}_FILES STREQUAL STEPWISE_LESSON_${nn}_SOURCES)
    set(checks ${program}-checks)
    add_library(${checks} OBJECT "${STEPWISE_LESSON_${nn}_TEST_SOURCE}")
    stepwise_lesson_code(${checks} ${ARG_LESSON} "${ARG_DIR}" "${libraries}")
    target_link_libraries(${checks} PRIVATE grader::harness)
  endif()
  list(TRANSFORM STEPWISE_LESSON_${nn}_SOURCES PREPEND "${ARG_DIR}/" OUTPUT_VARIABLE sources)
  add_library(${program}-code STATIC ${sources})
  stepwise_lesson_code(${program}-code ${ARG_LESSON} "${ARG_DIR}" "${libraries}")
  stepwise_link_given(${program}-code ${ARG_LESSON})
  stepwise_add_test_program(${program} LESSON ${ARG_LESSON} TRACK ${ARG_TRACK}
                            SANITIZERS ${STEPWISE_LESSON_${nn}_SANITIZERS} STUDENT ${program}-code
                            CHECKS ${checks} LINK ${checks} ${program}-code ${libraries})
  stepwise_lesson_code(${program} ${ARG_LESSON} "${ARG_DIR}" "${libraries}")
endfunction()
