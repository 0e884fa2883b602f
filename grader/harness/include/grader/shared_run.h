#pragma once
// Several checks in one process: `stepwise grade` runs a lesson's checks in one process instead of
// one each (issue 29: each process pays CUDA's start-up), and this keeps every check's verdict the
// one it would get alone:
// - a check's inputs follow from the seed and the check's name only, not from the checks before
//   it (grader::begin_check_inputs), so `STEPWISE_SEED=<seed>` repeats them in a run of its own;
// - with STEPWISE_GPU_LOCK=<file> (set by the runner, which runs several such processes at once)
//   a speed check holds that file's lock alone and every other check shares it, so nothing of
//   another process runs beside a timing (CTest's RUN_SERIAL, across processes);
// - with STEPWISE_SHARED_RUN=1, a check that leaves the GPU in a bad state (a CUDA error, sticky
//   or not, or device memory it did not give back) ends the process right after its own record is
//   written: the runner runs the checks after it in processes of their own.
#include <gtest/gtest.h>

namespace grader {

// Appended before the recorder, so that its end-of-check work sees the check's record written.
testing::TestEventListener* make_shared_run_listener();

}  // namespace grader
