// broken: exp_timed records the mark that ends the copy back before issuing the copy, so copy_out_ms times nothing (a few microseconds) while the copy itself takes milliseconds: every old check of the four times still passes.
// fails: ExpTimed.TimesKernelsApartFromCopies
// expect: your copy_out_ms \(the copy of the result back\) says [0-9.e-]+ ms. the trace shows its work took
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
  marks[4].record();  // the mistake: the mark after the copy back, recorded before it
  CUDA_CHECK(cudaMemcpy(out, d_exp.data(), bytes, cudaMemcpyDeviceToHost));

  ExpTimings timings;
  timings.copy_in_ms = stepwise::elapsed_ms(marks[0], marks[1]);
  timings.kernel_ms = stepwise::elapsed_ms(marks[1], marks[2]);
  timings.fast_kernel_ms = stepwise::elapsed_ms(marks[2], marks[3]);
  timings.copy_out_ms = stepwise::elapsed_ms(marks[3], marks[4]);
  return timings;
}
