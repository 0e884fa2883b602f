#include "grader/inputs.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "stepwise/check.h"

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

std::vector<float> random_floats(std::size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> pick(lo, hi);
  std::vector<float> values(n);
  for (float& v : values) v = pick(rng());
  return values;
}

std::vector<double> random_doubles(std::size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> pick(lo, hi);
  std::vector<double> values(n);
  for (double& v : values) v = pick(rng());
  return values;
}

std::vector<int> random_ints(std::size_t n, int lo, int hi) {
  std::uniform_int_distribution<int> pick(lo, hi);
  std::vector<int> values(n);
  for (int& v : values) v = pick(rng());
  return values;
}

std::size_t fit_in_device_memory(std::size_t wanted, std::size_t bytes_per_element) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t fits = static_cast<std::size_t>(0.4 * free_bytes) / bytes_per_element;
  return std::min(wanted, fits);
}

std::vector<int> standard_sizes(std::size_t bytes_per_element) {
  const int large = static_cast<int>(fit_in_device_memory(std::size_t{1} << 25, bytes_per_element));
  // 1000003 is prime; 100000 + 17 is no multiple of any block size.
  return {0, 1, 31, 32, 33, 1000, 100017, 1000003, large};
}

}  // namespace grader
