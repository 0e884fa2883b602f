// Lesson 02 reference solution, step 3: timing the copies and the kernels apart, with CUDA
// events.
#include <cuda_runtime.h>

#include <cstddef>

#include "elementwise_exp.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"

// One CUDA event, destroyed when it goes out of scope.
class GpuEvent {
 public:
  GpuEvent() { CUDA_CHECK(cudaEventCreate(&event_)); }
  ~GpuEvent() { cudaEventDestroy(event_); }
  GpuEvent(const GpuEvent&) = delete;
  GpuEvent& operator=(const GpuEvent&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

namespace {

// Milliseconds of GPU time between two recorded (and completed) events.
float ms_between(const GpuEvent& from, const GpuEvent& to) {
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, from.get(), to.get()));
  return ms;
}

}  // namespace

ExpTimings exp_timed(const float* x, float* out, int n) {
  if (n == 0) return ExpTimings{};
  const std::size_t bytes = sizeof(float) * n;
  stepwise::DeviceBuffer<float> d_x(n), d_exp(n), d_fast_exp(n);

  // An event is a mark in the GPU's queue of work: the GPU notes the time when it reaches the
  // mark, so the time between two marks is the time of exactly the work queued between them.
  GpuEvent marks[5];
  CUDA_CHECK(cudaEventRecord(marks[0].get()));
  CUDA_CHECK(cudaMemcpy(d_x.data(), x, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaEventRecord(marks[1].get()));
  exp_array(d_x.data(), d_exp.data(), n);
  CUDA_CHECK(cudaEventRecord(marks[2].get()));
  exp_array_fast(d_x.data(), d_fast_exp.data(), n);
  CUDA_CHECK(cudaEventRecord(marks[3].get()));
  CUDA_CHECK(cudaMemcpy(out, d_exp.data(), bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaEventRecord(marks[4].get()));
  // Elapsed times can only be read from events the GPU has reached: wait for the last one.
  CUDA_CHECK(cudaEventSynchronize(marks[4].get()));

  ExpTimings timings;
  timings.copy_in_ms = ms_between(marks[0], marks[1]);
  timings.kernel_ms = ms_between(marks[1], marks[2]);
  timings.fast_kernel_ms = ms_between(marks[2], marks[3]);
  timings.copy_out_ms = ms_between(marks[3], marks[4]);
  return timings;
}
