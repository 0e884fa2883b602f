# A correctness check that compares times while other processes share the GPU lock
# (STEPWISE_GPU_LOCK, grader/shared_run.h) fails as a bug of the grader's; one that called
# grader::hold_the_gpu_alone() first keeps every other process off the lock and passes; and one that
# asks to hold it alone while three other processes keep sharing it gets it as soon as their
# checks already running end (the gate in grader/harness/src/shared_run.cpp), while the checks of a
# sanitizer check's run pass a closed gate (they take no lock). No GPU needed.
#   cmake -DPROGRAM=<grader-selftest> -DWORK=<folder> -P gpu_lock.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
foreach(case "ComparesTimesSharingTheGpu;1;shared the GPU: a bug of the grader's" "ComparesTimesHoldingTheGpuAlone;0;PASSED"
             "ChecksUnderASanitizerTakeNoLock;0;PASSED")
  list(GET case 0 check)
  list(GET case 1 expected_status)
  list(GET case 2 says)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env STEPWISE_GPU_LOCK=${WORK}/gpu.lock STEPWISE_RESULTS_DIR=${WORK}/results
                          "${PROGRAM}" "--gtest_filter=SharedRunFixture.${check}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL expected_status OR NOT out MATCHES "${says}")
    message(FATAL_ERROR "${check}: exit status ${status} (expected ${expected_status}), output without \"${says}\":\n${out}")
  endif()
  message("${check}: exit status ${status}, \"${says}\"")
endforeach()

# Three processes take turns sharing the lock (600 checks of 20 ms each; their output is not
# needed), and a fourth asks for it alone once they run. execute_process starts them together.
file(MAKE_DIRECTORY "${WORK}/sharers")
set(env "${CMAKE_COMMAND}" -E env STEPWISE_GPU_LOCK=${WORK}/gpu.lock STEPWISE_RESULTS_DIR=${WORK}/results
        STEPWISE_LOCK_SHARERS=${WORK}/sharers)
set(sharer ${env} sh -c "exec \"$0\" --gtest_filter=SharedRunFixture.SharesTheLockForAMoment --gtest_repeat=600 >/dev/null 2>&1"
           "${PROGRAM}")
execute_process(COMMAND ${sharer} COMMAND ${sharer} COMMAND ${sharer}
                COMMAND ${env} "${PROGRAM}" --gtest_filter=SharedRunFixture.AloneWaitsOnlyForChecksAlreadyRunning
                RESULTS_VARIABLE statuses OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT statuses STREQUAL "0;0;0;0")
  message(FATAL_ERROR "AloneWaitsOnlyForChecksAlreadyRunning beside three sharing processes: exit statuses ${statuses} "
                      "(expected 0;0;0;0):\n${out}")
endif()
string(REGEX MATCH "[^\n]*OK \\][^\n]*" ok "${out}")
message("AloneWaitsOnlyForChecksAlreadyRunning beside three sharing processes: ${ok}")
