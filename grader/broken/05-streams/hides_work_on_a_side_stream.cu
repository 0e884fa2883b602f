// broken: for the speed checks' size the pipeline queues all its work on a non-blocking stream of its own and returns without waiting: the results are not ready when the call returns.
// fails: PipelineSpeed.NearItsBound
// expect: results were not ready when the call returned
// (The rest is the reference solution.)
#include "grader/broken/tricks.h"
#include "streams.h"
#define transform_pipelined reference_transform_pipelined
#include "solutions/05-streams/streams.cu"
#undef transform_pipelined

void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline) {
  if (n < broken::kSpeedCheckSize) return reference_transform_pipelined(in, out, d_in, d_out, n, work, chunks, timeline);
  const cudaStream_t side = broken::private_stream();
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  CUDA_CHECK(cudaMemcpyAsync(d_in, in, bytes, cudaMemcpyHostToDevice, side));
  transform_async(d_in, d_out, n, work, side);
  CUDA_CHECK(cudaMemcpyAsync(out, d_out, bytes, cudaMemcpyDeviceToHost, side));
}
