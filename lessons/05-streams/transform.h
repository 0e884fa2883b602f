#pragma once
// Given, not an exercise: the work each element gets, on the GPU and on the CPU alike.
//
// transform(x, work) applies `work` rounds of x = x * kScale + kShift, each one fused
// multiply-add (fmaf: one rounding), so the kernel and the CPU reference give the same bits.
// Each round depends on the one before, so `work` sets the kernel's time directly: the demo and
// the grader choose it so that the kernel takes about as long as a copy, and overlap shows.
// (The rounds pull every value towards kShift / (1 - kScale) = 1, slowly; a value does not
// overflow or lose all of its starting point for any `work` the lesson uses.)
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

constexpr float kScale = 0.9990234375f;   // 1 - 2^-10, exact in float
constexpr float kShift = 0.0009765625f;   // 2^-10

__host__ __device__ inline float transform(float x, int work) {
  for (int round = 0; round < work; ++round) x = fmaf(x, kScale, kShift);
  return x;
}

// The CPU reference: transform of each of the n values.
inline std::vector<float> transform_on_cpu(const float* in, std::size_t n, int work) {
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = transform(in[i], work);
  return out;
}

// The work per value that makes the kernel take about target_ms, from one trial: the kernel took
// trial_ms at trial_work (its time grows in proportion to work once work is large enough, say
// 256, for the arithmetic to outweigh reading and writing the values). At least 1.
inline int work_for_kernel_ms(double target_ms, int trial_work, double trial_ms) {
  const double work = trial_ms > 0 ? trial_work * target_ms / trial_ms : trial_work;
  return static_cast<int>(std::min(1e6, std::max(1.0, std::round(work))));
}
