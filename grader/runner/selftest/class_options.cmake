# `stepwise class` refuses every option value that is not what it must be, before it builds or
# writes anything: each bad command must exit with a failure status, name the option, and leave
# no output folder behind.
#   cmake -DRUNNER=<bin/stepwise> -DBUILD_DIR=<course build> -DSOURCE_DIR=<course> -DWORK=<folder> -P class_options.cmake
cmake_minimum_required(VERSION 3.24)
set(class "${SOURCE_DIR}/grader/tests/fixtures/class")
set(problems "")
foreach(case
    "--speed-scale|abc" "--speed-scale|0" "--speed-scale|-1" "--speed-scale|1.5x"
    "--time-limit|abc" "--time-limit|0" "--jobs|two" "--checks-per-gpu|0" "--student-index|-1"
    "--skip|everything" "--step|build" "--cuda-architectures|9x" "--requirements|${WORK}/no-such-file"
    "--lessons|99")
  string(REPLACE "|" ";" words "${case}")
  list(GET words 0 option)
  file(REMOVE_RECURSE "${WORK}/out")
  execute_process(COMMAND "${RUNNER}" --build "${BUILD_DIR}" class "${class}" --out "${WORK}/out" ${words}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(status EQUAL 0)
    string(APPEND problems "${case}: accepted (exit status 0)\n${out}\n")
  elseif(NOT out MATCHES "${option}|lesson '99'")
    string(APPEND problems "${case}: refused without naming the option:\n${out}\n")
  endif()
  if(EXISTS "${WORK}/out")
    string(APPEND problems "${case}: the output folder was made before the value was refused\n")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "${problems}")
endif()
message(STATUS "every bad option value was refused before anything was built")
