// Self-tests of several checks in one process (grader/shared_run.h). Inputs: a check draws the
// same values alone or after other checks. SharedRunFixture: checks that leave the GPU in a bad
// state, run only by shared_run.cmake (with STEPWISE_SHARED_RUN=1), which expects the process to
// end right after such a check's record, before the next check starts; and checks that compare
// times or wait for the lock, run only by gpu_lock.cmake (with STEPWISE_GPU_LOCK set).
#include <gtest/gtest.h>

#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "grader/gpu.h"
#include "grader/inputs.h"
#include "grader/shared_run.h"
#include "grader/speed.h"

namespace {

TEST(SharedRunInputs, ACheckDrawsTheSameAloneOrAfterOthers) {
  grader::begin_check_inputs("Lesson.First");
  const std::vector<float> alone = grader::random_floats(5, -1, 1);
  const std::uint64_t engine_alone = grader::rng()();
  grader::begin_check_inputs("Lesson.Before");
  const std::vector<float> other = grader::random_floats(7, -1, 1);
  grader::rng()();
  grader::begin_check_inputs("Lesson.First");
  EXPECT_EQ(grader::random_floats(5, -1, 1), alone);
  EXPECT_EQ(grader::rng()(), engine_alone);
  EXPECT_NE(std::vector<float>(other.begin(), other.begin() + 5), alone);  // another check, other values
}

// What a check waited for others is left out of its record's time (grader::note_seconds_waited).
TEST(SharedRunWaits, AddUpWithinACheck) {
  EXPECT_EQ(grader::seconds_this_check_waited(), 0.0);
  grader::note_seconds_waited(1.5);
  grader::note_seconds_waited(0.25);
  EXPECT_EQ(grader::seconds_this_check_waited(), 1.75);
}
TEST(SharedRunWaits, StartAtZeroInTheNextCheck) {
  EXPECT_EQ(grader::seconds_this_check_waited(), 0.0) << "the check before's waits were carried over";
}

__global__ void write_to(int* address) { *address = 1; }

TEST(SharedRunFixture, LeavesAStickyError) {
  REQUIRE_GPU();
  write_to<<<1, 1>>>(reinterpret_cast<int*>(64));  // an illegal address: every later CUDA call fails
  cudaDeviceSynchronize();
}

TEST(SharedRunFixture, LeavesDeviceMemoryAllocated) {
  REQUIRE_GPU();
  void* kept = nullptr;
  ASSERT_EQ(cudaMalloc(&kept, std::size_t{256} << 20), cudaSuccess);
}

// Times an empty launch as the speed checks do, L2 flushed: the flush buffer the harness keeps for
// the process (2 x L2) is no leftover of this check's.
__global__ void nothing() {}
TEST(SharedRunFixture, TimesWithTheL2Flushed) {
  REQUIRE_GPU();
  EXPECT_GE(grader::gpu_median_ms([] { nothing<<<1, 1>>>(); }), 0.0);
}

TEST(SharedRunFixture, NeedsAWorkingGpu) {
  REQUIRE_GPU();
  void* memory = nullptr;
  ASSERT_EQ(cudaMalloc(&memory, 4), cudaSuccess);
  ASSERT_EQ(cudaFree(memory), cudaSuccess);
}

// Times compared while the lock is shared: the check fails as a bug of the grader's.
TEST(SharedRunFixture, ComparesTimesSharingTheGpu) {
  EXPECT_TRUE(grader::parts_fit_in_whole(1.0, 2.0, "two parts"));
}

// Held alone: no other process (here another open file of the same lock) can take it, even
// shared, and the same comparison passes.
TEST(SharedRunFixture, ComparesTimesHoldingTheGpuAlone) {
  grader::hold_the_gpu_alone();
  const int other = open(std::getenv("STEPWISE_GPU_LOCK"), O_RDWR | O_CLOEXEC);
  ASSERT_GE(other, 0);
  EXPECT_NE(flock(other, LOCK_SH | LOCK_NB), 0) << "another check took the lock beside a check that holds it alone";
  close(other);
  EXPECT_TRUE(grader::parts_fit_in_whole(1.0, 2.0, "two parts"));
}

// A sanitizer check holds the lock shared for its whole run of the checks, so the checks of that
// run take no lock: at a gate closed by a check waiting to hold the GPU alone, which waits for the
// sanitizer check to end, they would wait forever. This check stands for the sanitizer check and
// closes the gate itself, as the waiting check would.
TEST(SharedRunFixture, ChecksUnderASanitizerTakeNoLock) {
  const char* lock = std::getenv("STEPWISE_GPU_LOCK");
  ASSERT_NE(lock, nullptr) << "run by gpu_lock.cmake";
  const int gate = open((std::string(lock) + ".gate").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(gate, 0);
  ASSERT_EQ(flock(gate, LOCK_EX), 0);
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const int status = std::system(("STEPWISE_UNDER_SANITIZER=memcheck timeout 10 '" + self +
                                  "' --gtest_filter=SharedRunFixture.SharesTheLockForAMoment >/dev/null 2>&1")
                                     .c_str());
  flock(gate, LOCK_UN);
  close(gate);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << "a check run under compute-sanitizer waited at the gate (exit status "
      << (WIFEXITED(status) ? WEXITSTATUS(status) : -1) << ", 124: killed after 10 s)";
}

// gpu_lock.cmake runs three processes that repeat this check, which shares the lock for 20 ms and
// marks its process as started (a file named by its process id in STEPWISE_LOCK_SHARERS), beside
// one that runs AloneWaitsOnlyForChecksAlreadyRunning.
TEST(SharedRunFixture, SharesTheLockForAMoment) {
  const char* sharers = std::getenv("STEPWISE_LOCK_SHARERS");
  if (sharers == nullptr) GTEST_SKIP() << "run by gpu_lock.cmake";
  std::ofstream(std::string(sharers) + "/" + std::to_string(getpid()));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

// Once the three run, taking turns so that one or another always shares the lock, holding it
// alone waits for the checks already running (20 ms), not for the three processes to end (over
// 10 s of checks each).
TEST(SharedRunFixture, AloneWaitsOnlyForChecksAlreadyRunning) {
  const char* sharers = std::getenv("STEPWISE_LOCK_SHARERS");
  ASSERT_NE(sharers, nullptr) << "run by gpu_lock.cmake";
  const auto count = [&] {
    std::error_code ignored;
    std::ptrdiff_t started = 0;
    for (auto it = std::filesystem::directory_iterator(sharers, ignored); it != std::filesystem::directory_iterator(); ++it)
      ++started;
    return started;
  };
  const auto clock_start = std::chrono::steady_clock::now();
  while (count() < 3 && std::chrono::steady_clock::now() - clock_start < std::chrono::seconds(60))
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_EQ(count(), 3) << "the three processes that share the lock did not start within a minute";
  const double waited_before = grader::seconds_this_check_waited();
  grader::hold_the_gpu_alone();
  const double waited = grader::seconds_this_check_waited() - waited_before;
  EXPECT_LT(waited, 2.0) << "waited " << waited << " s to hold the lock alone while other processes kept sharing it";
}

}  // namespace
