// broken: exp_timed measures exp_array from the mark before the copy to the GPU, so its "kernel time" also holds the copy: the mistake of timing a GPU computation together with its transfers.
// fails: ExpTimed.TimesKernelsApartFromCopies
// expect: the time taken for exp_array includes a copy
// (The rest is the reference solution.)
#include "elementwise_exp.h"
#define exp_timed reference_exp_timed
#include "solutions/02-elementwise-exp/exp_timed.cu"
#undef exp_timed
#include "solutions/02-elementwise-exp/elementwise_exp.cu"

ExpTimings exp_timed(const float* x, float* out, int n) {
  if (n == 0) return ExpTimings{};
  const std::size_t bytes = sizeof(float) * n;
  stepwise::DeviceBuffer<float> d_x(n), d_exp(n), d_fast_exp(n);
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

  ExpTimings timings;
  timings.copy_in_ms = stepwise::elapsed_ms(marks[0], marks[1]);
  timings.kernel_ms = stepwise::elapsed_ms(marks[0], marks[2]);  // the mistake: from before the copy
  timings.fast_kernel_ms = stepwise::elapsed_ms(marks[2], marks[3]);
  timings.copy_out_ms = stepwise::elapsed_ms(marks[3], marks[4]);
  return timings;
}
