// broken: the pipeline queues every chunk on the default stream, so nothing overlaps
// fails: PipelineSpeed.BeatsOneStream
// expect: too slow for '05-streams/PipelineSpeed.BeatsOneStream'
// (The rest is the reference solution.)
#include "streams.h"
#define transform_pipelined reference_transform_pipelined
#include "solutions/05-streams/streams.cu"
#undef transform_pipelined

void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline) {
  if (chunks < 1) throw std::invalid_argument("chunks must be 1 or more");
  if (n <= 0) return;
  const int chunk_size = static_cast<int>((static_cast<long long>(n) + chunks - 1) / chunks);
  for (int c = 0; c < chunks && static_cast<long long>(c) * chunk_size < n; ++c) {
    const int first = c * chunk_size;
    const int count = std::min(chunk_size, n - first);
    const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(float);
    CUDA_CHECK(cudaMemcpyAsync(d_in + first, in + first, bytes, cudaMemcpyHostToDevice, nullptr));
    transform_async(d_in + first, d_out + first, count, work, nullptr);
    CUDA_CHECK(cudaMemcpyAsync(out + first, d_out + first, bytes, cudaMemcpyDeviceToHost, nullptr));
  }
  (void)timeline;
  CUDA_CHECK(cudaStreamSynchronize(nullptr));
}
