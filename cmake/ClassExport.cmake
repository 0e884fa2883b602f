# stepwise_export_for_class(): what grading a class reuses from this build, so that the class
# build (grader/class, a project of its own) compiles only the students' files:
#   <build>/class-export/targets.cmake  the compiled common library, harness and each lesson's
#                                       checks and given code (as imported targets
#                                       stepwise_built::<name>)
#   <build>/class-export/course.cmake   the compilers, the CUDA architectures, and per lesson its
#                                       exercise files, given files, libraries, sanitizers and the
#                                       program that lists its checks (from add_lesson)
function(stepwise_export_for_class)
  get_property(lessons GLOBAL PROPERTY STEPWISE_CLASS_LESSONS)
  get_property(description GLOBAL PROPERTY STEPWISE_CLASS_DESCRIPTION)
  set(targets stepwise_common stepwise_warnings grader_harness)
  foreach(lesson IN LISTS lessons)
    string(SUBSTRING "${lesson}" 0 2 nn)
    list(APPEND targets lesson${nn}-checks-exercise)
    if(TARGET lesson${nn}-given)  # compiled once for the course, linked for every student
      list(APPEND targets lesson${nn}-given)
    endif()
  endforeach()
  # A downloaded GoogleTest is part of this build and travels with it; the system's is found again.
  get_target_property(gtest_imported GTest::gtest IMPORTED)
  set(find_gtest "find_package(GTest REQUIRED)")
  if(NOT gtest_imported)
    get_target_property(gtest GTest::gtest ALIASED_TARGET)
    list(APPEND targets ${gtest})
    set(find_gtest "find_package(Threads REQUIRED)")
  endif()
  set(dir "${PROJECT_BINARY_DIR}/class-export")
  export(TARGETS ${targets} NAMESPACE stepwise_built:: FILE "${dir}/targets.cmake")
  string(JOIN "\n" text
    "# Written by cmake/ClassExport.cmake: the course build ${PROJECT_BINARY_DIR}, for grader/class."
    "set(STEPWISE_COURSE_SOURCE_DIR \"${PROJECT_SOURCE_DIR}\")"
    "set(STEPWISE_COURSE_BUILD_DIR \"${PROJECT_BINARY_DIR}\")"
    "set(STEPWISE_COURSE_CUDA_COMPILER \"${CMAKE_CUDA_COMPILER}\")"
    "set(STEPWISE_COURSE_CXX_COMPILER \"${CMAKE_CXX_COMPILER}\")"
    "set(STEPWISE_COURSE_CUDA_ARCHITECTURES \"${CMAKE_CUDA_ARCHITECTURES}\")"
    "set(STEPWISE_COURSE_BUILD_TYPE \"${CMAKE_BUILD_TYPE}\")"
    "set(STEPWISE_COURSE_LESSONS \"${lessons}\")"
    "set(STEPWISE_RUNNER \"$<TARGET_FILE:stepwise>\")"
    "macro(stepwise_find_course_dependencies)"
    "  find_package(CUDAToolkit REQUIRED)"
    "  ${find_gtest}"
    "  include(\"${dir}/targets.cmake\")"
    "endmacro()"
    "${description}")
  file(GENERATE OUTPUT "${dir}/course.cmake" CONTENT "${text}")
endfunction()
