#include "grader/shared_run.h"

#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "grader/check_kind.h"
#include "grader/gpu.h"
#include "grader/inputs.h"
#include "grader/results.h"
#include "grader/speed.h"
#include "grader/trace.h"
#include "grader/work_queue.h"

namespace grader {
namespace {

double waited_seconds = 0;  // by the current check: seconds_this_check_waited()
bool held_alone = false;    // by the current check: this_check_held_the_gpu_alone()
bool timed_work = false;    // by the current check: this_check_timed_its_work()
// A library's cache, not a leak: cuBLAS keeps a little over 64 MiB per handle on an H100 (lesson
// 06's Cublas checks ended their process at 64 MiB). The self-test's leak is 256 MiB.
constexpr std::size_t kMostDeviceBytesLeftBehind = std::size_t{128} << 20;
constexpr int kEndedForIsolation = 3;

bool shared_run() {
  const char* value = std::getenv("STEPWISE_SHARED_RUN");
  return value != nullptr && std::string(value) == "1";
}

// A check that times its work does not run in a process the runner gave one hardware work queue
// (grader/work_queue.h): the process ends before the check starts, without a record. Not under
// compute-sanitizer, whose runs always have one queue and whose checks decide themselves what
// times mean there.
void leave_if_timing_on_one_work_queue(const std::string& check) {
  const char* value = std::getenv(kOneWorkQueueVariable);
  if (value == nullptr || std::string(value) != "1" || under_sanitizer()) return;
  std::printf("[ stepwise ] %s %s (CUDA_DEVICE_MAX_CONNECTIONS=1): it and the checks after it run in a process "
              "with CUDA's default queues\n", check.c_str(), kLeftOneWorkQueue);
  std::fflush(stdout);
  std::_Exit(kEndedForIsolation);
}

// The lock file STEPWISE_GPU_LOCK names, held shared or alone by the current check, and a gate in
// front of it (the same name and ".gate"). flock favours no one: a check waiting to hold the lock
// alone waits for a moment when no check of another process shares it, and while other processes'
// checks keep taking turns that moment may not come until they are done (a speed check beside
// compute-sanitizer's runs waited 39 s). So a check that wants it alone first closes the gate,
// and a check that wants to share passes through the gate: one arriving after the gate closed
// waits behind it, and the check waiting to be alone waits only for the checks already running.
// (The demos share the lock without the gate, with util-linux's flock: each only delays it.)
class GpuLock {
 public:
  static GpuLock& instance() {
    static GpuLock lock;
    return lock;
  }
  // Not in a sanitizer check's run of the checks: that check holds the lock shared for all of them
  // (its checks, waiting at a gate closed by a check that waits for it to end, would wait forever).
  bool in_use() const { return !path().empty() && !under_sanitizer(); }
  // Alone, or nobody to share with: no lock file named, or none that could be opened.
  bool alone() const { return !in_use() || fd_ < 0 || held_ == LOCK_EX; }

  void take(int how) {
    if (how == LOCK_UN) {
      if (fd_ >= 0 && held_ != LOCK_UN) flock(fd_, LOCK_UN);
      held_ = LOCK_UN;
      return;
    }
    if (!in_use() || how == held_) return;
    if (fd_ < 0) {
      std::error_code ignored;  // the results folder of a first run may not exist yet
      std::filesystem::create_directories(std::filesystem::path(path()).parent_path(), ignored);
      fd_ = open(path().c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      gate_ = open((path() + ".gate").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    }
    if (fd_ < 0) return;
    // Shared to alone lets go of the shared hold first (flock's own change is not atomic either):
    // a check holding the lock must not wait at the gate, whose closer waits for that check.
    if (held_ != LOCK_UN) take(LOCK_UN);
    wait_for(gate_, how);
    const bool taken = wait_for(fd_, how);
    wait_for(gate_, LOCK_UN);
    if (taken) held_ = how;
  }

 private:
  static std::string path() {
    const char* value = std::getenv("STEPWISE_GPU_LOCK");
    return value == nullptr ? "" : value;
  }
  // flock, retried when a signal interrupts the wait; false if it failed (a gate that could not
  // be opened or locked only lets the check through).
  static bool wait_for(int fd, int how) {
    if (fd < 0) return false;
    while (flock(fd, how) != 0)
      if (errno != EINTR) return false;
    return true;
  }
  int fd_ = -1;
  int gate_ = -1;
  int held_ = LOCK_UN;
};

class SharedRun : public testing::EmptyTestEventListener {
  // STEPWISE_START_CUDA_EARLY=1 (the runner's processes of checks that hold the GPU alone, run two
  // at a time): this process's CUDA context, about 0.2 s, is made before its first check waits for
  // the lock, while the other process's check holds it, instead of inside that first check's hold.
  void OnTestProgramStart(const testing::UnitTest&) override {
    const char* early = std::getenv("STEPWISE_START_CUDA_EARLY");
    if (early == nullptr || std::string(early) != "1" || under_sanitizer() || !gpu().can_run) return;
    (void)cudaFree(nullptr);
    (void)cudaGetLastError();  // a failure shows again, and is reported, in the check that meets it
  }

  void OnTestStart(const testing::TestInfo& test) override {
    begin_check_inputs(check_name(test));
    waited_seconds = 0;
    kind_ = check_kind(test.test_suite_name());
    if (kind_ == CheckKind::speed) leave_if_timing_on_one_work_queue(check_name(test));
    held_alone = kind_ == CheckKind::speed;
    timed_work = held_alone;
    GpuLock::instance().take(kind_ == CheckKind::speed ? LOCK_EX : LOCK_SH);
    held_at_start_ = -1;
    free_at_start_ = 0;
    kept_at_start_ = device_bytes_kept_by_harness();
    if (shared_run() && uses_gpu()) {
      held_at_start_ = held_by_checks();
      std::size_t total = 0;
      if (held_at_start_ < 0 && cudaMemGetInfo(&free_at_start_, &total) != cudaSuccess) free_at_start_ = 0;
    }
  }

  // Runs after the recorder's (GoogleTest calls end-of-test listeners last-added first).
  void OnTestEnd(const testing::TestInfo& test) override {
    std::string bad_state;
    if (shared_run() && uses_gpu()) bad_state = gpu_state_left();
    GpuLock::instance().take(LOCK_UN);
    if (bad_state.empty()) return;
    std::printf("[ stepwise ] %s left %s: the checks after it run in processes of their own\n",
                check_name(test).c_str(), bad_state.c_str());
    std::fflush(stdout);
    std::_Exit(kEndedForIsolation);
  }

  bool uses_gpu() const { return needs_gpu(kind_) && gpu().can_run; }

  // "" when the GPU is as a fresh process finds it, else what is wrong.
  std::string gpu_state_left() const {
    const cudaError_t synced = cudaDeviceSynchronize();
    const cudaError_t last = cudaGetLastError();
    const cudaError_t error = synced != cudaSuccess ? synced : last;
    if (error != cudaSuccess) return std::string("a CUDA error (") + cudaGetErrorString(error) + ")";
    // This process's own allocations (CUPTI's records), which other processes on the GPU do not
    // move; where CUPTI cannot count, the device's free memory, which they do.
    if (held_at_start_ >= 0) {
      const long long left = held_by_checks() - held_at_start_;
      if (left > static_cast<long long>(kMostDeviceBytesLeftBehind))
        return std::to_string(left >> 20) + " MiB of device memory allocated";
      return "";
    }
    std::size_t free_now = 0, total = 0;
    const std::size_t kept = device_bytes_kept_by_harness() - kept_at_start_;
    if (free_at_start_ > 0 && cudaMemGetInfo(&free_now, &total) == cudaSuccess &&
        free_now + kept + kMostDeviceBytesLeftBehind < free_at_start_)
      return std::to_string((free_at_start_ - free_now - kept) >> 20) + " MiB of device memory allocated";
    return "";
  }

  // device_memory_held() less what the harness keeps for the whole process (the L2 flush buffer
  // a first speed check makes): otherwise that check would end the process as if it leaked.
  static long long held_by_checks() {
    const long long held = device_memory_held();
    return held < 0 ? held : held - static_cast<long long>(device_bytes_kept_by_harness());
  }

  CheckKind kind_ = CheckKind::correctness;
  long long held_at_start_ = -1;  // device_memory_held() when the check started (-1: not counted)
  std::size_t free_at_start_ = 0;
  std::size_t kept_at_start_ = 0;  // device_bytes_kept_by_harness() when the check started
};

}  // namespace

testing::TestEventListener* make_shared_run_listener() { return new SharedRun; }

// Under compute-sanitizer the lock is not used (GpuLock::in_use), and the sanitizer's slowness
// dwarfs any neighbour's: each check decides itself what times mean there.
void hold_the_gpu_alone() {
  if (const testing::TestInfo* test = testing::UnitTest::GetInstance()->current_test_info())
    leave_if_timing_on_one_work_queue(check_name(*test));
  timed_work = true;
  hold_the_gpu_alone_for_its_memory();
}

void hold_the_gpu_alone_for_its_memory() {
  held_alone = true;
  const auto start = std::chrono::steady_clock::now();
  GpuLock::instance().take(LOCK_EX);
  note_seconds_waited(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

bool this_check_held_the_gpu_alone() { return held_alone; }

bool this_check_timed_its_work() { return timed_work; }

void note_seconds_waited(double seconds) { waited_seconds += seconds; }

double seconds_this_check_waited() { return waited_seconds; }

testing::AssertionResult times_taken_alone() {
  if (GpuLock::instance().alone()) return testing::AssertionSuccess();  // under compute-sanitizer too
  return testing::AssertionFailure() << "this check compares times taken while other checks shared the GPU: a bug of the "
                                     << "grader's, not yours (the check must call grader::hold_the_gpu_alone() first)";
}

}  // namespace grader
