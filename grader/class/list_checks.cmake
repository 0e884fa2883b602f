# Writes the checks a lesson's test program holds (its --gtest_list_tests), one a line:
#   <Suite.Test> <labels, comma-separated>
# labelled as the course labels its own checks (stepwise_discover_tests in cmake/AddLesson.cmake):
# suites starting with Cpu "cpu,correctness", suites ending in Speed "gpu,speed", the suite
# Sanitizer "gpu,sanitizer", all others "gpu,correctness".
#   cmake -DPROGRAM=<lessonNN-tests> -DOUTPUT=<file> -P list_checks.cmake
execute_process(COMMAND "${PROGRAM}" --gtest_list_tests RESULT_VARIABLE status OUTPUT_VARIABLE listing
                ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --gtest_list_tests failed (${status}): ${errors}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(checks "")
set(suite "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE "  #.*$" "" line "${line}")  # "  # GetParam() = ..." of parameterized tests
  if(line MATCHES "^([^ ].*)\\.$")
    set(suite "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^  ([^ ]+)$" AND suite)
    set(check "${suite}.${CMAKE_MATCH_1}")
    if(suite MATCHES "^Cpu")
      set(labels "cpu,correctness")
    elseif(suite MATCHES "Speed$")
      set(labels "gpu,speed")
    elseif(suite STREQUAL "Sanitizer")
      set(labels "gpu,sanitizer")
    else()
      set(labels "gpu,correctness")
    endif()
    string(APPEND checks "${check} ${labels}\n")
  endif()
endforeach()
file(WRITE "${OUTPUT}" "${checks}")
