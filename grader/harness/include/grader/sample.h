#pragma once
// Checking a large output after timing without copying all of it back: a random sample of its
// indices, new for each check (so code cannot know which values will be looked at), always with
// the first and the last, and the values at those indices gathered on the GPU. A call that
// skipped any sizeable share of its work leaves poison or stale values in the sample.
//
//   const grader::Sample sample(n);
//   const std::vector<float> a = sample.of(d_a.data()), b = sample.of(d_b.data()), out = sample.of(d_out.data());
//   return sample.matches(exact_sums(a, b), out, grader::Tolerance::ulps(0.5));
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "grader/compare.h"
#include "stepwise/buffers.h"

namespace grader {

class Sample {
 public:
  static constexpr std::size_t kValues = std::size_t{1} << 16;
  // `count` distinct indices below n (all of them when n <= count), in increasing order; with
  // `ends`, the first and the last `ends` indices too (a tail loop's, the last block's).
  explicit Sample(std::size_t n, std::size_t count = kValues, std::size_t ends = 0);

  const std::vector<std::size_t>& indices() const { return indices_; }
  std::size_t size() const { return indices_.size(); }

  // The values of a device array at the sampled indices (a kernel on the default stream, then
  // a copy back; returns when they are on the host). For float, double and int.
  template <typename T>
  std::vector<T> of(const T* device_values) const;

  // matches() on sampled values, naming each mismatch by its index in the whole output.
  template <typename T, typename Reference>
  testing::AssertionResult matches(const std::vector<Reference>& expected, const std::vector<T>& actual,
                                   const Tolerance& tolerance) const {
    return grader::matches(expected, actual, tolerance, &indices_);
  }

 private:
  std::vector<std::size_t> indices_;
  stepwise::DeviceBuffer<std::size_t> device_indices_;
};

}  // namespace grader
