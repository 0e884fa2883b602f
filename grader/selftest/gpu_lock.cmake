# A correctness check that compares times while other processes share the GPU lock
# (STEPWISE_GPU_LOCK, grader/shared_run.h) fails as a bug of the grader's; one that called
# grader::hold_the_gpu_alone() first keeps every other process off the lock and passes. No GPU needed.
#   cmake -DPROGRAM=<grader-selftest> -DWORK=<folder> -P gpu_lock.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
foreach(case "ComparesTimesSharingTheGpu;1;shared the GPU: a bug of the grader's" "ComparesTimesHoldingTheGpuAlone;0;PASSED")
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
