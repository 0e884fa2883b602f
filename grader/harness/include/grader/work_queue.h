#pragma once
// One hardware work queue for the runner's processes of checks that time nothing. Each work queue
// of a process is a channel the GPU takes turns between, and the runner's processes share one GPU:
// with CUDA's default of 8 per process they start slower and take longer beside each other.
// compute-sanitizer's runs of the checks have always had one. A check that times its work must
// not run so (streams' work may wait for each other there where it would overlap anywhere else):
// in such a process it ends the process before it starts (grader/shared_run.h), saying
// kLeftOneWorkQueue, and the runner runs the checks that process did not in one with CUDA's
// default queues. Header-only: the harness and the runner (grader/runner) both read it.
#include <string>
#include <vector>

namespace grader {

// The variable that tells the harness its process has one work queue (set to 1).
constexpr const char* kOneWorkQueueVariable = "STEPWISE_ONE_WORK_QUEUE";

// Adds to a process's environment what gives it one work queue and tells the harness so.
inline void add_one_work_queue(std::vector<std::string>& environment) {
  environment.push_back("CUDA_DEVICE_MAX_CONNECTIONS=1");
  environment.push_back(std::string(kOneWorkQueueVariable) + "=1");
}

// Part of the line ("[ stepwise ] <check> ...") with which such a process ends.
constexpr const char* kLeftOneWorkQueue = "times its work, and this process has one hardware work queue";

}  // namespace grader
