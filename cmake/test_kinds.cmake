# Read by CTest as it lists the tests (the TEST_INCLUDE_FILES that cmake/AddLesson.cmake writes):
# gives tests the properties of their checks' kinds. The kinds are the grader's one rule's,
# grader::check_kind (grader/check_kind.h: a suite's name says its kind), asked of the runner,
# `stepwise check-kinds`: one process for all the tests of a test program, or all of a lesson's
# broken submissions, and little CMake per test, so that listing one lesson's tests stays quick
# (`stepwise watch` does it after each edit). (No IN_LIST here: CTest reads this file under
# CMake's old policies.)

# stepwise_set_check_kinds(<bin/stepwise> TESTS <test>... (PREFIX <prefix> | CHECKS <checks>...)
#                          [KIND_LABELS <label>...] [SPEED_FOUND <var>])
#   PREFIX       each test is <prefix><Suite.Test> and runs that check (discovered tests)
#   CHECKS       or each test's checks, in the order of TESTS: Suite.Test names or GoogleTest
#                patterns (Suite.*), ':' between them (broken submissions)
#   KIND_LABELS  with PREFIX: the test's labels are these, then its check's kind's
#                (grader::check_labels)
#   SPEED_FOUND  with PREFIX: <var> is set TRUE, for the rest of the file CTest reads, if a check
#                is of kind speed (the lesson's speed tricks: cmake/AddLesson.cmake)
# A test that runs a speed check runs alone (RUN_SERIAL: timings); one that runs a sanitizer check
# counts as two of CTest's jobs (compute-sanitizer is slow and busy, but times nothing).
function(stepwise_set_check_kinds runner)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "PREFIX;SPEED_FOUND" "TESTS;CHECKS;KIND_LABELS")
  if(DEFINED ARG_PREFIX)
    set(asked ${ARG_TESTS})
  else()
    string(REPLACE ":" ";" asked "${ARG_CHECKS}")
    list(REMOVE_DUPLICATES asked)
  endif()
  if(NOT EXISTS "${runner}")
    message(WARNING "${runner} is not built, so the tests of ${ARG_TESTS} have no kind (labels, RUN_SERIAL): "
                    "build it (cmake --build <build folder> --target stepwise)")
    return()
  endif()
  execute_process(COMMAND "${runner}" check-kinds --prefix "${ARG_PREFIX}" ${asked}
                  RESULT_VARIABLE status OUTPUT_VARIABLE lines)
  string(REGEX MATCHALL "[^\n]+" lines "${lines}")  # "<check> <kind> <labels,...>", as asked
  list(LENGTH asked expected)
  list(LENGTH lines got)
  if(NOT status EQUAL 0 OR NOT got EQUAL expected)
    message(WARNING "${runner} check-kinds failed (exit status ${status}, ${got} of ${expected} lines)")
    return()
  endif()

  if(DEFINED ARG_PREFIX)  # one check a test, its line beside it
    foreach(test line IN ZIP_LISTS ARG_TESTS lines)
      string(REGEX MATCH "^[^ ]+ ([a-z]+) ([^ ]+)$" matched "${line}")
      string(REPLACE "," ";" labels "${CMAKE_MATCH_2}")
      set_tests_properties("${test}" PROPERTIES LABELS "${ARG_KIND_LABELS};${labels}")
      if(CMAKE_MATCH_1 STREQUAL "speed")
        set_tests_properties("${test}" PROPERTIES RUN_SERIAL TRUE)
        if(ARG_SPEED_FOUND)
          set(${ARG_SPEED_FOUND} TRUE PARENT_SCOPE)
        endif()
      elseif(CMAKE_MATCH_1 STREQUAL "sanitizer")
        set_tests_properties("${test}" PROPERTIES PROCESSORS 2)
      endif()
    endforeach()
    return()
  endif()
  foreach(test checks IN ZIP_LISTS ARG_TESTS ARG_CHECKS)  # the kinds of each test's checks
    string(REPLACE ":" ";" checks "${checks}")
    set(kinds "")
    foreach(check IN LISTS checks)
      list(FIND asked "${check}" at)
      list(GET lines ${at} line)
      string(REGEX MATCH "^[^ ]+ ([a-z]+) " matched "${line}")
      list(APPEND kinds ${CMAKE_MATCH_1})
    endforeach()
    list(FIND kinds speed speed)
    list(FIND kinds sanitizer sanitizer)
    if(speed GREATER -1)
      set_tests_properties("${test}" PROPERTIES RUN_SERIAL TRUE)
    elseif(sanitizer GREATER -1)
      set_tests_properties("${test}" PROPERTIES PROCESSORS 2)
    endif()
  endforeach()
endfunction()
