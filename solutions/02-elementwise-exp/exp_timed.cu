// Lesson 02 reference solution, step 3: timing the copies and the kernels apart, with CUDA
// events.
#include <cuda_runtime.h>

#include <cstddef>

#include "elementwise_exp.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"

ExpTimings exp_timed(const float* x, float* out, int n) {
  if (n == 0) return ExpTimings{};
  const std::size_t bytes = sizeof(float) * n;
  stepwise::DeviceBuffer<float> d_x(n), d_exp(n), d_fast_exp(n);

  // An event is a mark in the GPU's queue of work: the GPU notes the time when it reaches the
  // mark, so the time between two marks is the time of exactly the work queued between them.
  stepwise::GpuEvent marks[5];
  marks[0].record();
  CUDA_CHECK(cudaMemcpy(d_x.data(), x, bytes, cudaMemcpyHostToDevice));
  marks[1].record();
  exp_array(d_x.data(), d_exp.data(), n);
  marks[2].record();
  exp_array_fast(d_x.data(), d_fast_exp.data(), n);
  marks[3].record();
  CUDA_CHECK(cudaMemcpy(out, d_exp.data(), bytes, cudaMemcpyDeviceToHost));
  marks[4].record();

  // elapsed_ms waits until the GPU has reached the later mark, then reads the time between.
  ExpTimings timings;
  timings.copy_in_ms = stepwise::elapsed_ms(marks[0], marks[1]);
  timings.kernel_ms = stepwise::elapsed_ms(marks[1], marks[2]);
  timings.fast_kernel_ms = stepwise::elapsed_ms(marks[2], marks[3]);
  timings.copy_out_ms = stepwise::elapsed_ms(marks[3], marks[4]);
  return timings;
}
