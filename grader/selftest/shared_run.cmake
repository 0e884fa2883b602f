# Several checks in one process (grader/shared_run.h): a check that leaves a sticky CUDA error, or
# device memory allocated, ends the process right after its own record, so the next check (which
# would fail on a broken GPU) never runs there: the runner runs it in a process of its own. The
# fixture leaves 256 MiB; the figure printed is the device's free memory before and after, which
# other processes on the GPU move by a few MiB (258 MiB under ctest -j8 on an H100).
# Each case also with the CUDA context made before the first check (STEPWISE_START_CUDA_EARLY=1,
# which the runner sets for its processes of checks that hold the GPU alone): the same verdicts.
#   cmake -DPROGRAM=<grader-selftest> -DWORK=<folder> -P shared_run.cmake
foreach(early 0 1)
foreach(case "LeavesAStickyError;left a CUDA error" "LeavesDeviceMemoryAllocated;left [0-9]+ MiB of device memory allocated")
  list(GET case 0 first)
  list(GET case 1 says)
  file(REMOVE_RECURSE "${WORK}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env STEPWISE_SHARED_RUN=1 STEPWISE_RESULTS_DIR=${WORK} STEPWISE_START_CUDA_EARLY=${early}
                          "${PROGRAM}" "--gtest_filter=SharedRunFixture.${first}:SharedRunFixture.NeedsAWorkingGpu"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(out MATCHES "\\[  SKIPPED \\] SharedRunFixture.${first}")
    message("no GPU: skipped")
    return()
  endif()
  set(problems "")
  if(NOT status EQUAL 3)
    string(APPEND problems "exit status ${status}, not 3\n")
  endif()
  if(NOT out MATCHES "\\[ stepwise \\] SharedRunFixture.${first} ${says}[^\n]*: the checks after it run in processes of their own")
    string(APPEND problems "no line says the check ${says}\n")
  endif()
  if(NOT EXISTS "${WORK}/grader__SharedRunFixture.${first}.json")
    string(APPEND problems "no record of SharedRunFixture.${first}\n")
  endif()
  if(out MATCHES "RUN      \\] SharedRunFixture.NeedsAWorkingGpu" OR EXISTS "${WORK}/grader__SharedRunFixture.NeedsAWorkingGpu.json")
    string(APPEND problems "SharedRunFixture.NeedsAWorkingGpu ran in the same process\n")
  endif()
  if(problems)
    message(FATAL_ERROR "${first} (STEPWISE_START_CUDA_EARLY=${early}):\n${problems}\n${out}")
  endif()
  message("${first} (STEPWISE_START_CUDA_EARLY=${early}): the process ended after its record (${says})")
endforeach()
endforeach()

# A check that times its work, in a process the runner gave one hardware work queue
# (STEPWISE_ONE_WORK_QUEUE=1, CUDA_DEVICE_MAX_CONNECTIONS=1): the process ends before the check
# starts, with no record of it, so the runner runs it and the checks after it in a process with
# CUDA's default queues. A check that times nothing runs there and passes.
file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env STEPWISE_SHARED_RUN=1 STEPWISE_RESULTS_DIR=${WORK} STEPWISE_GPU_LOCK=${WORK}/gpu.lock
                        STEPWISE_ONE_WORK_QUEUE=1 CUDA_DEVICE_MAX_CONNECTIONS=1
                        "${PROGRAM}" "--gtest_filter=SharedRunFixture.NeedsAWorkingGpu:SharedRunFixture.ComparesTimesHoldingTheGpuAlone:SharedRunFixture.SharesTheLockForAMoment"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
set(problems "")
if(NOT status EQUAL 3)
  string(APPEND problems "exit status ${status}, not 3\n")
endif()
if(NOT out MATCHES "OK \\] SharedRunFixture.NeedsAWorkingGpu" OR NOT EXISTS "${WORK}/grader__SharedRunFixture.NeedsAWorkingGpu.json")
  string(APPEND problems "SharedRunFixture.NeedsAWorkingGpu, which times nothing, did not pass with its record\n")
endif()
if(NOT out MATCHES "\\[ stepwise \\] SharedRunFixture.ComparesTimesHoldingTheGpuAlone times its work, and this process has one hardware work queue[^\n]*: it and the checks after it run in a process with CUDA's default queues")
  string(APPEND problems "no line says the timing check leaves the process\n")
endif()
if(EXISTS "${WORK}/grader__SharedRunFixture.ComparesTimesHoldingTheGpuAlone.json")
  string(APPEND problems "the timing check wrote a record on one work queue\n")
endif()
if(out MATCHES "RUN      \\] SharedRunFixture.SharesTheLockForAMoment")
  string(APPEND problems "the check after it ran in the same process\n")
endif()
if(problems)
  message(FATAL_ERROR "a timing check on one work queue:\n${problems}\n${out}")
endif()
message("ComparesTimesHoldingTheGpuAlone on one work queue: the process ended before it, without its record")

# The harness's own L2 flush buffer (kept for the process, 100 MB on an H100) is no leftover: the
# check after the one that made it runs in the same process.
file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env STEPWISE_SHARED_RUN=1 STEPWISE_RESULTS_DIR=${WORK}
                        "${PROGRAM}" "--gtest_filter=SharedRunFixture.TimesWithTheL2Flushed:SharedRunFixture.NeedsAWorkingGpu"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0 OR NOT out MATCHES "OK \\] SharedRunFixture.NeedsAWorkingGpu")
  message(FATAL_ERROR "TimesWithTheL2Flushed: the check after it did not run in the same process (exit status ${status}):\n${out}")
endif()
message("TimesWithTheL2Flushed: the next check ran in the same process")
