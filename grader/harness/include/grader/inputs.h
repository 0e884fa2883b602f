#pragma once
// Inputs and outputs for checks: fresh random values on every run (the seed is printed when a
// check fails; STEPWISE_SEED=<seed> repeats a run), sizes that catch indexing bugs, and output
// buffers filled with poison and followed by a guard region, so that values a kernel never
// wrote, and writes past the end, are both caught.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "stepwise/buffers.h"

namespace grader {

// This run's seed: STEPWISE_SEED if set, otherwise drawn from the system once per process.
std::uint64_t seed();
// The run's random engine, seeded from seed() and, once a check starts, from its name.
std::mt19937_64& rng();
// Called as each check starts (grader/shared_run.h): the check's draws and rng() follow from the
// seed and `check` only, so a check gets the same inputs alone or after other checks.
void begin_check_inputs(const std::string& check);

std::vector<float> random_floats(std::size_t n, float lo, float hi);
std::vector<double> random_doubles(std::size_t n, double lo, double hi);
std::vector<int> random_ints(std::size_t n, int lo, int hi);

// New random values in [lo, hi) written straight into device memory by a GPU kernel: fresh
// inputs for every timed run at the cost of a fast fill. Each call draws new values; the draws
// follow from seed(), so STEPWISE_SEED repeats them.
void refill_random(float* data, std::size_t n, float lo, float hi);
void refill_random(double* data, std::size_t n, double lo, double hi);
void refill_random(int* data, std::size_t n, int lo, int hi);  // [lo, hi], both included

// Blocks of `threads_per_block` for a grid-stride loop of the grader's own over n items: enough
// to fill the GPU (at most 1024), but no more than the items need. Under racecheck every block of
// every launch costs the GPU about 25 us (5 ms a launch), so 1024 blocks for a few thousand
// values took 30 ms where 17 take 5.
unsigned grid_stride_blocks(std::size_t n, unsigned threads_per_block = 256);

// True when the checks run under compute-sanitizer (a sanitizer check's inner run), which makes
// kernels 10-100 times slower: lessons shrink their large sizes then. standard_sizes() and
// fit_in_device_memory() shrink by themselves.
bool under_sanitizer();

// Sizes that catch indexing bugs: 0, 1, one warp and either side of it, a prime, a size that is
// no multiple of common block sizes, and a large one that fits in free device memory given the
// bytes each element needs in total (inputs + outputs). Under compute-sanitizer the large one is
// 2^16, and the prime and the odd size are smaller (4099, 16411).
std::vector<int> standard_sizes(std::size_t bytes_per_element);
// The largest element count up to `wanted` whose `bytes_per_element` fit in 40% of the free
// device memory (so the grader also runs on small laptop GPUs, and checks that run side by side
// fit together); at most 2^20 under compute-sanitizer.
std::size_t fit_in_device_memory(std::size_t wanted, std::size_t bytes_per_element);

// The most device memory one check may take: 3/4 of the GPU's, so that the checks beside it
// (at most 40% of what is free, fit_in_device_memory) keep a quarter.
std::size_t most_device_memory_for_one_check();
// Device memory for a check at the largest size an `int n` API takes (n = INT_MAX: 8.6 GB per
// float array): runs `allocate`, which makes the check's device buffers (`bytes` in all), once
// they fit with a quarter of the GPU left free, waiting while checks beside it hold more (up to 2
// minutes). Returns "" when it allocated, else why not (more than most_device_memory_for_one_check,
// or held by others all that time), for GTEST_SKIP.
std::string allocate_if_it_fits(std::size_t bytes, const std::function<void()>& allocate);
// What a wrong result at n = INT_MAX most likely means, and the fix.
constexpr const char* kIntMaxHint =
    "n = INT_MAX = 2147483647: does the round-up (n + 255) / 256 overflow int, or a grid-stride index pass "
    "INT_MAX at its last step (i += stride)? Round up as (n - 1) / 256 + 1, and keep a grid-stride index in a "
    "long long";
// A check at the largest size an `int` API takes (n = INT_MAX, a 1 x INT_MAX mesh): SKIPs the
// running test, saying why and starting with `what`, under compute-sanitizer (2^31 elements are
// too many for it) or when allocate_if_it_fits(bytes, allocate) says no; otherwise runs `check`,
// where a CUDA or library error fails the test with `hint` (an overflowed grid is rejected at
// launch; a size wrapped negative is refused by the library). Call
// it last in a TEST: after a SKIP the test's body goes on.
void check_at_int_max(const std::string& what, std::size_t bytes, const std::function<void()>& allocate,
                      const std::function<void()>& check, const std::string& hint = kIntMaxHint);

// Every byte of an output is set to this before the code under test runs. As float it reads
// -2.87e-16 and as int -1515870811: values no lesson produces from its inputs.
constexpr unsigned char kPoisonByte = 0xA5;
template <typename T>
bool is_poison(T value) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  for (unsigned char b : bytes)
    if (b != kPoisonByte) return false;
  return true;
}

// Fills `count` values of device memory with poison (asynchronously, on the default stream).
template <typename T>
void poison(T* data, std::size_t count) {
  if (count > 0) CUDA_CHECK(cudaMemsetAsync(data, kPoisonByte, count * sizeof(T)));
}

// A host output of `count` values, poisoned, for functions that write into host memory.
template <typename T>
std::vector<T> poisoned_host(std::size_t count) {
  std::vector<T> values(count);
  if (count > 0) std::memset(values.data(), kPoisonByte, count * sizeof(T));
  return values;
}

// A device output of `count` values, poisoned, followed by a poisoned guard region.
template <typename T>
class Output {
 public:
  static constexpr std::size_t kGuard = 4096;  // more than any block, so a missing bounds check shows
  explicit Output(std::size_t count) : count_(count), buffer_(count + kGuard) { poison(); }

  T* data() { return buffer_.data(); }
  std::size_t size() const { return count_; }
  void poison() { CUDA_CHECK(cudaMemset(buffer_.data(), kPoisonByte, buffer_.bytes())); }

  // The values, copied back as a caller would read them: the copy waits for the work queued
  // on the default stream (and streams that synchronise with it), not for work left running on
  // a non-blocking stream of the code's own, so results that are not ready show as poison.
  std::vector<T> to_host() const {
    std::vector<T> all = all_values();
    all.resize(count_);
    return all;
  }
  // Fails naming the first guard element that changed: the code wrote past the end.
  // Only the guard is copied back, so that this is cheap for outputs of gigabytes.
  testing::AssertionResult guard_intact() const {
    std::vector<T> guard(kGuard);
    CUDA_CHECK(cudaMemcpy(guard.data(), buffer_.data() + count_, kGuard * sizeof(T), cudaMemcpyDeviceToHost));
    for (std::size_t g = 0; g < kGuard; ++g)
      if (const std::size_t i = count_ + g; !is_poison(guard[g]))
        return testing::AssertionFailure()
               << "wrote past the end of the output: element " << i << " (the output has "
               << count_ << " elements, so the last valid index is " << count_ - 1
               << "); is there a bounds check `if (i < n)` in the kernel?";
    return testing::AssertionSuccess();
  }

 private:
  std::vector<T> all_values() const { return buffer_.to_host(); }
  std::size_t count_;
  stepwise::DeviceBuffer<T> buffer_;
};

// A device copy of host values, in one call: device(a).data().
template <typename T>
stepwise::DeviceBuffer<T> device(const std::vector<T>& values) {
  return stepwise::DeviceBuffer<T>::from_host(values);
}

}  // namespace grader
