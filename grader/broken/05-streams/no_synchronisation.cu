// broken: one stream queues copy in, kernel and copy out, and returns without waiting for them
// fails: OneStream.ResultsReadyWhenItReturns
// expect: the results were not ready when transform_one_stream returned
// (The rest is the reference solution.)
#include "streams.h"
#define transform_one_stream reference_transform_one_stream
#include "solutions/05-streams/streams.cu"
#undef transform_one_stream

void transform_one_stream(const float* in, float* out, float* d_in, float* d_out, int n, int work,
                          cudaStream_t stream) {
  if (n == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  CUDA_CHECK(cudaMemcpyAsync(d_in, in, bytes, cudaMemcpyHostToDevice, stream));
  transform_async(d_in, d_out, n, work, stream);
  CUDA_CHECK(cudaMemcpyAsync(out, d_out, bytes, cudaMemcpyDeviceToHost, stream));
  // missing: cudaStreamSynchronize(stream)
}
