# add_lesson(<NN-slug> [LIBRARIES <target>...] [DEMO_ARGS <arg>...])
#
# Registers one lesson. Its files follow one convention:
#   lessons/<NN-slug>/*.h, *.cuh      the API the grader tests; headers holding a step
#                                     (templates) have a twin in solutions/
#   lessons/<NN-slug>/*.cu, *.cpp     the exercise a student completes (demo.cu is the demo)
#   solutions/<NN-slug>/...           the reference: the same file names, a drop-in replacement
#   grader/tests/<NN-slug>.cu|.cpp    the grader's tests of the API
# For each track (exercise, solution) it builds the implementation, the demo and the tests,
# with that track's folder first on the include path:
#   bin/lessonNN-demo,          bin/lessonNN-tests           (the exercise: what a student runs)
#   bin/lessonNN-demo-solution, bin/lessonNN-tests-solution  (the reference solution)
# LIBRARIES names what the lesson's code links to (e.g. CUDA::cublas). The solution's demo is
# also a test (<NN-slug>/solution/demo), run with DEMO_ARGS in the build folder.
function(add_lesson lesson)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "LIBRARIES;DEMO_ARGS")
  string(SUBSTRING "${lesson}" 0 2 nn)
  set(exercise_dir "${PROJECT_SOURCE_DIR}/lessons/${lesson}")
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${lesson}")

  file(GLOB api_sources CONFIGURE_DEPENDS RELATIVE "${exercise_dir}" "${exercise_dir}/*.cu" "${exercise_dir}/*.cpp")
  list(REMOVE_ITEM api_sources demo.cu demo.cpp)
  file(GLOB demo_source CONFIGURE_DEPENDS "${exercise_dir}/demo.cu" "${exercise_dir}/demo.cpp")
  file(GLOB test_source CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/grader/tests/${lesson}.cu"
                                          "${PROJECT_SOURCE_DIR}/grader/tests/${lesson}.cpp")
  if(NOT api_sources OR NOT demo_source OR NOT test_source)
    message(FATAL_ERROR "lesson ${lesson} needs lessons/${lesson}/*.cu (the exercise), "
                        "lessons/${lesson}/demo.cu and grader/tests/${lesson}.cu")
  endif()
  stepwise_require_solution_twins(${lesson} "${api_sources}")

  foreach(track exercise solution)
    if(track STREQUAL "exercise")
      set(source_dir "${exercise_dir}")
      set(suffix "")
    else()
      set(source_dir "${solution_dir}")
      set(suffix "-solution")
    endif()
    list(TRANSFORM api_sources PREPEND "${source_dir}/" OUTPUT_VARIABLE sources)
    set(implementation lesson${nn}-${track})
    add_library(${implementation} STATIC ${sources})
    stepwise_lesson_code(${implementation} ${lesson} "${source_dir}" "${ARG_LIBRARIES}")

    add_executable(lesson${nn}-demo${suffix} ${demo_source})
    stepwise_lesson_code(lesson${nn}-demo${suffix} ${lesson} "${source_dir}" "")
    target_link_libraries(lesson${nn}-demo${suffix} PRIVATE ${implementation})

    stepwise_add_test_program(lesson${nn}-tests${suffix} LESSON ${lesson} TRACK ${track}
                              LINK ${implementation})
    target_sources(lesson${nn}-tests${suffix} PRIVATE ${test_source})
    stepwise_lesson_code(lesson${nn}-tests${suffix} ${lesson} "${source_dir}" "")
    stepwise_discover_tests(lesson${nn}-tests${suffix} ${lesson} ${track})
  endforeach()

  add_test(NAME ${lesson}/solution/demo COMMAND lesson${nn}-demo-solution ${ARG_DEMO_ARGS}
           WORKING_DIRECTORY "${PROJECT_BINARY_DIR}")
  set_tests_properties(${lesson}/solution/demo PROPERTIES
    LABELS "lesson-${nn};solution;demo;gpu" SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)

  stepwise_add_todo_lint(${lesson})
  set_property(GLOBAL PROPERTY STEPWISE_LIBRARIES_${lesson} ${ARG_LIBRARIES})
  set_property(GLOBAL APPEND PROPERTY STEPWISE_TEST_PROGRAMS_exercise lesson${nn}-tests)
  set_property(GLOBAL APPEND PROPERTY STEPWISE_TEST_PROGRAMS_solution lesson${nn}-tests-solution)
endfunction()

# Every exercise source, and every exercise header that holds a step, has a solution twin.
function(stepwise_require_solution_twins lesson api_sources)
  file(GLOB headers CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}/lessons/${lesson}"
       "${PROJECT_SOURCE_DIR}/lessons/${lesson}/*.h" "${PROJECT_SOURCE_DIR}/lessons/${lesson}/*.cuh")
  set(needed ${api_sources})
  foreach(header IN LISTS headers)
    file(READ "${PROJECT_SOURCE_DIR}/lessons/${lesson}/${header}" text)
    if(text MATCHES "STEPWISE_TODO\\(")
      list(APPEND needed ${header})
    endif()
  endforeach()
  foreach(file IN LISTS needed)
    if(NOT EXISTS "${PROJECT_SOURCE_DIR}/solutions/${lesson}/${file}")
      message(FATAL_ERROR "solutions/${lesson}/${file} is missing: every exercise file with a "
                          "step needs its reference solution under the same name")
    endif()
  endforeach()
endfunction()

# Compile settings shared by a lesson's implementation, demo and tests: the track's folder
# first on the include path (a solution header replaces the exercise's), then the lesson's.
function(stepwise_lesson_code target lesson source_dir libraries)
  target_include_directories(${target} PRIVATE "${source_dir}" "${PROJECT_SOURCE_DIR}/lessons/${lesson}")
  target_compile_definitions(${target} PRIVATE STEPWISE_LESSON_DIR="lessons/${lesson}")
  target_link_libraries(${target} PRIVATE stepwise::common stepwise::warnings ${libraries})
endfunction()

# A grader test program: test objects + an implementation + the harness + its own identity
# (which lesson and track it grades, for the result records).
function(stepwise_add_test_program target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "LESSON;TRACK" "LINK")
  add_executable(${target} "${PROJECT_SOURCE_DIR}/grader/harness/src/identity.cpp")
  target_compile_definitions(${target} PRIVATE STEPWISE_LESSON="${ARG_LESSON}" STEPWISE_TRACK="${ARG_TRACK}")
  target_link_libraries(${target} PRIVATE ${ARG_LINK} grader::harness)
endfunction()

# CTest tests, one per GoogleTest test, named <NN-slug>/<track>/<Suite>.<Test>, labelled
# lesson-NN, the track, and by the suite's name: suites ending in "Speed" are "speed;gpu" (run
# one at a time, never beside another test), suites starting with "Cpu" are "correctness;cpu",
# all others "correctness;gpu".
function(stepwise_discover_tests target lesson track)
  string(SUBSTRING "${lesson}" 0 2 nn)
  set(common PREFIX "${lesson}/${track}/")
  stepwise_discover_gtests(${target} ${common} FILTER "*Speed.*" SERIAL
                           LABELS lesson-${nn} ${track} speed gpu)
  stepwise_discover_gtests(${target} ${common} FILTER "Cpu*.*"
                           LABELS lesson-${nn} ${track} correctness cpu)
  stepwise_discover_gtests(${target} ${common} FILTER "-*Speed.*:Cpu*.*"
                           LABELS lesson-${nn} ${track} correctness gpu)
endfunction()

# stepwise_discover_gtests(<target> PREFIX <p> FILTER <gtest filter> LABELS <label>... [SERIAL])
# The GoogleTest tests of <target> that match FILTER become CTest tests named <p><Suite>.<Test>,
# discovered when CTest runs (so a machine without a GPU can list them). SERIAL: never run beside
# another test (timings). The labels are a list, which gtest_discover_tests' PROPERTIES cannot
# carry; a file CTest reads right after the discovery sets them.
function(stepwise_discover_gtests target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "SERIAL" "PREFIX;FILTER" "LABELS")
  set(extra "")
  if(ARG_SERIAL)
    set(extra RUN_SERIAL TRUE)
  endif()
  string(MAKE_C_IDENTIFIER "${target}_${ARG_LABELS}_tests" found)
  gtest_discover_tests(${target}
    TEST_PREFIX "${ARG_PREFIX}"
    TEST_FILTER "${ARG_FILTER}"
    TEST_LIST ${found}
    DISCOVERY_MODE PRE_TEST
    PROPERTIES TIMEOUT 600 ${extra})
  set(labels_file "${CMAKE_CURRENT_BINARY_DIR}/${found}_labels.cmake")
  file(WRITE "${labels_file}"
       "if(${found})\n  set_tests_properties(\${${found}} PROPERTIES LABELS \"${ARG_LABELS}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels_file}")
endfunction()

# A lint check that needs the GPU: every check of the untouched exercise must fail with
# "not implemented yet: lessons/<NN-slug>/README.md step N" (TODO), none may crash or pass.
function(stepwise_add_todo_lint lesson)
  string(SUBSTRING "${lesson}" 0 2 nn)
  add_test(NAME lint/${lesson}/exercise-reports-todo
    COMMAND "${CMAKE_COMMAND}" -DPROGRAM=$<TARGET_FILE:lesson${nn}-tests> -DLESSON=${lesson}
            -P "${PROJECT_SOURCE_DIR}/grader/lint/expect_todo.cmake")
  set_tests_properties(lint/${lesson}/exercise-reports-todo PROPERTIES
    LABELS "lesson-${nn};lint;selftest;gpu" SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
endfunction()

# add_broken_submission(<NN-slug> <name> CHECKS <gtest filter> EXPECT <regex>)
#
# A faulty implementation (grader/broken/<NN-slug>/<name>.cu) linked with the lesson's tests.
# The test passes only if the CHECKS fail, cleanly, with output matching EXPECT: proof that
# the grader catches that mistake and says where it is.
function(add_broken_submission lesson name)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "CHECKS;EXPECT" "")
  string(SUBSTRING "${lesson}" 0 2 nn)
  set(target lesson${nn}-broken-${name})
  # The broken file #includes the solution's source and replaces one function; it links what
  # the solution links.
  get_property(libraries GLOBAL PROPERTY STEPWISE_LIBRARIES_${lesson})
  file(GLOB test_source "${PROJECT_SOURCE_DIR}/grader/tests/${lesson}.cu" "${PROJECT_SOURCE_DIR}/grader/tests/${lesson}.cpp")
  stepwise_add_test_program(${target} LESSON ${lesson} TRACK broken-${name} LINK "")
  target_sources(${target} PRIVATE ${test_source} "${PROJECT_SOURCE_DIR}/grader/broken/${lesson}/${name}.cu")
  stepwise_lesson_code(${target} ${lesson} "${PROJECT_SOURCE_DIR}/solutions/${lesson}" "${libraries}")
  target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}")
  add_test(NAME ${lesson}/broken/${name}
    COMMAND "${CMAKE_COMMAND}" -DPROGRAM=$<TARGET_FILE:${target}> "-DCHECKS=${ARG_CHECKS}"
            "-DEXPECT=${ARG_EXPECT}" -P "${PROJECT_SOURCE_DIR}/grader/broken/expect_failure.cmake")
  set_tests_properties(${lesson}/broken/${name} PROPERTIES
    LABELS "lesson-${nn};selftest;gpu" RUN_SERIAL TRUE TIMEOUT 600
    SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
endfunction()
