#include "grader/inputs.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "grader/cpu_parallel.h"
#include "grader/results.h"
#include "grader/shared_run.h"
#include "grader/splitmix.h"
#include "grader/trace.h"
#include "stepwise/check.h"
#include "stepwise/cuda_error.h"
#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace grader {

std::uint64_t seed() {
  static const std::uint64_t value = [] {
    if (const char* fixed = std::getenv("STEPWISE_SEED")) return static_cast<std::uint64_t>(std::strtoull(fixed, nullptr, 10));
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device();
  }();
  return value;
}

std::mt19937_64& rng() {
  static std::mt19937_64 engine(seed());
  return engine;
}

namespace {
// From the seed and the running check's name: a check's draws do not depend on the checks before it.
bool check_started = false;
std::uint64_t check_base = 0;
std::uint64_t draws = 0;
}  // namespace

void begin_check_inputs(const std::string& check) {
  std::uint64_t name_hash = 1469598103934665603ull;  // FNV-1a: the same on every machine
  for (const unsigned char c : check) name_hash = (name_hash ^ c) * 1099511628211ull;
  check_base = seed() * 0x2545F4914F6CDD1Dull + name_hash;
  check_started = true;
  draws = 0;
  rng().seed(seed() ^ name_hash);
}

std::uint64_t next_draw() {
  if (!check_started) check_base = seed() * 0x2545F4914F6CDD1Dull;  // no check named yet (a self-test)
  return check_base + (++draws << 32);
}

namespace {

// The values of one new draw, by the same hash the GPU's refill_random uses: a few nanoseconds
// each, where a sequential engine and distribution take tens (2^26 values: 0.2 s against 2 s),
// and each value its own, so that each idle core makes a slice of them.
template <typename T, typename Pick>
std::vector<T> draw(std::size_t n, Pick pick) {
  const std::uint64_t this_draw = next_draw();
  std::vector<T> values(n);
  in_parallel(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) values[i] = pick(draw_bits(this_draw, i));
  }, std::size_t{1} << 16);
  return values;
}

}  // namespace

std::vector<float> random_floats(std::size_t n, float lo, float hi) {
  return draw<float>(n, [=](std::uint64_t bits) { return uniform_value<float>(bits, lo, double{hi} - lo); });
}

std::vector<double> random_doubles(std::size_t n, double lo, double hi) {
  return draw<double>(n, [=](std::uint64_t bits) { return uniform_value<double>(bits, lo, hi - lo); });
}

std::vector<int> random_ints(std::size_t n, int lo, int hi) {
  const auto count = static_cast<unsigned long long>(static_cast<long long>(hi) - lo + 1);
  return draw<int>(n, [=](std::uint64_t bits) { return uniform_int(bits, lo, count); });
}

bool under_sanitizer() {
  const char* value = std::getenv("STEPWISE_UNDER_SANITIZER");
  return value != nullptr && *value != '\0' && std::string(value) != "0";
}

std::size_t fit_in_device_memory(std::size_t wanted, std::size_t bytes_per_element) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t fits = static_cast<std::size_t>(0.4 * free_bytes) / bytes_per_element;
  const std::size_t cap = under_sanitizer() ? std::size_t{1} << 20 : wanted;
  return std::min({wanted, fits, cap});
}

std::size_t most_device_memory_for_one_check() {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return total_bytes / 4 * 3;
}

std::string allocate_if_it_fits(std::size_t bytes, const std::function<void()>& allocate) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > most_device_memory_for_one_check()) {
    note_gpu_too_small();
    return "needs " + megabytes(bytes) + " of device memory, more than 3/4 of this GPU's " + megabytes(total_bytes) +
           ": not run here";
  }
  // A check that needs more than a quarter of the GPU holds it alone: beside other checks it waited
  // for their memory, up to minutes on a busy GPU (and two such checks for each other), and the
  // runner starts a check that held it alone first next time, one after another. Otherwise a
  // quarter of the GPU stays free for the checks beside it; while other checks hold more, wait.
  const bool alone = bytes > total_bytes / 4;
  if (alone) hold_the_gpu_alone_for_its_memory();
  const std::size_t kept_free = alone ? 0 : total_bytes / 4;
  const auto start = std::chrono::steady_clock::now(), give_up = start + std::chrono::minutes(2);
  const auto waited = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  for (;;) {
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (free_bytes >= bytes + kept_free) {
      try {
        allocate();
        note_seconds_waited(waited());
        return "";
      } catch (const stepwise::CudaError& e) {
        if (e.code() != cudaErrorMemoryAllocation) throw;
        (void)cudaGetLastError();  // not sticky: clear it, and wait as for memory not free
      }
    }
    if (std::chrono::steady_clock::now() > give_up) {
      note_seconds_waited(waited());
      return "needs " + megabytes(bytes) + " of device memory" + (alone ? "" : " with a quarter of the GPU left free") +
             ", and other checks held it for 2 minutes (" + megabytes(free_bytes) + " free): not run here";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void check_at_int_max(const std::string& what, std::size_t bytes, const std::function<void()>& allocate,
                      const std::function<void()>& check, const std::string& hint) {
  if (under_sanitizer()) GTEST_SKIP() << what << ": 2^31 elements are too many for compute-sanitizer";
  const std::string why_not = allocate_if_it_fits(bytes, allocate);
  if (!why_not.empty()) GTEST_SKIP() << what << " " << why_not;
  try {
    check();
  } catch (const stepwise::NotImplemented&) {
    throw;  // a step not written yet: TODO, not a failure
  } catch (const std::exception& e) {  // a CUDA or library error, e.g. a launch of an overflowed grid
    ADD_FAILURE() << e.what() << "\n  " << hint;
  }
}

std::vector<int> standard_sizes(std::size_t bytes_per_element) {
  const std::size_t wanted = under_sanitizer() ? std::size_t{1} << 16 : std::size_t{1} << 25;
  const int large = static_cast<int>(fit_in_device_memory(wanted, bytes_per_element));
  // 1000003 is prime; 100000 + 17 is no multiple of any block size. Under compute-sanitizer, whose
  // cost grows with every access, the primes 4099 and 16411 (16 and 64 blocks of 256 and a tail)
  // show the same bugs at a fiftieth of the work.
  if (under_sanitizer()) return {0, 1, 31, 32, 33, 1000, 4099, 16411, large};
  return {0, 1, 31, 32, 33, 1000, 100017, 1000003, large};
}

}  // namespace grader
