// broken: for large inputs the pipeline queues everything on a private non-blocking stream and returns without waiting
// fails: PipelineSpeed.NearItsBound
// expect: not ready when the call returned
#include "streams.h"
#define transform_pipelined reference_transform_pipelined
#include "solutions/05-streams/streams.cu"
#undef transform_pipelined

void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline) {
  if (n < (1 << 22)) return reference_transform_pipelined(in, out, d_in, d_out, n, work, chunks, timeline);
  static cudaStream_t side = [] {
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    return stream;
  }();
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  CUDA_CHECK(cudaMemcpyAsync(d_in, in, bytes, cudaMemcpyHostToDevice, side));
  transform_async(d_in, d_out, n, work, side);
  CUDA_CHECK(cudaMemcpyAsync(out, d_out, bytes, cudaMemcpyDeviceToHost, side));
}
