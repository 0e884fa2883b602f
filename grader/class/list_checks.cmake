# Writes the checks a lesson's test program holds (its --gtest_list_tests), one a line:
#   <Suite.Test> <labels, comma-separated>
# labelled as the course labels its own checks (stepwise_discover_tests in cmake/AddLesson.cmake)
# by their kind (stepwise_check_labels, cmake/CheckKind.cmake), e.g. "speed,gpu", "correctness,cpu".
#   cmake -DPROGRAM=<lessonNN-tests> -DOUTPUT=<file> -P list_checks.cmake
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/CheckKind.cmake")
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
    stepwise_check_labels("${suite}" labels)
    string(REPLACE ";" "," labels "${labels}")
    string(APPEND checks "${check} ${labels}\n")
  endif()
endforeach()
file(WRITE "${OUTPUT}" "${checks}")
