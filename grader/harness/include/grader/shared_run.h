#pragma once
// Several checks in one process: `stepwise grade` runs a lesson's checks in one process instead of
// one each (issue 29: each process pays CUDA's start-up), and this keeps every check's verdict the
// one it would get alone:
// - a check's inputs follow from the seed and the check's name only, not from the checks before
//   it (grader::begin_check_inputs), so `STEPWISE_SEED=<seed>` repeats them in a run of its own;
// - with STEPWISE_GPU_LOCK=<file> (set by the runner, which runs several such processes at once,
//   and by CTest for every lesson check) a speed check holds that file's lock alone and every
//   other check shares it, so nothing of another process runs beside a timing (CTest's
//   RUN_SERIAL, across processes); a correctness check that compares times asks for the same
//   with grader::hold_the_gpu_alone(); checks that start while one waits to hold it alone wait
//   behind it (the checks of a sanitizer check's run take no lock: that check holds it for them);
// - with STEPWISE_SHARED_RUN=1, a check that leaves the GPU in a bad state (a CUDA error, sticky
//   or not, or device memory it did not give back) ends the process right after its own record is
//   written: the runner runs the checks after it in processes of their own.
#include <gtest/gtest.h>

namespace grader {

// Appended before the recorder, so that its end-of-check work sees the check's record written.
testing::TestEventListener* make_shared_run_listener();

// Called first by a correctness check that compares times (a reported time against the trace's,
// one part against another): until the check ends, no check of another process runs on the GPU,
// as for a speed check (under compute-sanitizer beside it, a copy can take 3x as long). Without
// a lock file (a check run on its own) there is nobody to keep off, and it does nothing.
// In a process the runner gave one hardware work queue (grader/work_queue.h) a check that times
// its work (this, or a speed check) ends the process before it starts, without a record: the
// runner runs it and the checks after it again with CUDA's default queues, so that it times
// what the student's program does anywhere else.
void hold_the_gpu_alone();

// The same hold for a check whose device memory would crowd out the others' (more than a quarter
// of the GPU, grader::allocate_if_it_fits): it times nothing, so one work queue is no matter.
void hold_the_gpu_alone_for_its_memory();

// Seconds the current check spent waiting for other checks (to hold the GPU alone, for device
// memory they held), which its record's time leaves out: the runner spreads the next run's checks
// by how long each takes itself. note_seconds_waited adds to it; each check starts at 0.
void note_seconds_waited(double seconds);
double seconds_this_check_waited();

// Whether the running check held the GPU alone (a speed check, or one that called
// hold_the_gpu_alone): its record says so, and the runner starts such checks first next time,
// before compute-sanitizer's long runs share the GPU.
bool this_check_held_the_gpu_alone();

// Whether the running check timed its work: a speed check, or one that called hold_the_gpu_alone
// (not hold_the_gpu_alone_for_its_memory). Its record says so, for the runner's work queues.
bool this_check_timed_its_work();

// Success when times this check took can be compared: no lock file, or the check holds it alone.
// grader::reported_time_matches and grader::parts_fit_in_whole return its failure first.
testing::AssertionResult times_taken_alone();

}  // namespace grader
