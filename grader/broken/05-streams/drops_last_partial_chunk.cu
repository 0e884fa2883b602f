// broken: the chunk size is n / chunks, rounded down, so the values after chunks * (n / chunks) are never done
// fails: Pipeline.MatchesCpuForEveryChunkCount
// expect: values differ from the CPU reference.*never written
// (The rest is the reference solution.)
#include "streams.h"
#define transform_pipelined reference_transform_pipelined
#include "solutions/05-streams/streams.cu"
#undef transform_pipelined

void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline) {
  if (chunks < 1) throw std::invalid_argument("chunks must be 1 or more");
  if (n <= 0) return;
  const int chunk_size = std::max(1, n / chunks);
  StreamGuard streams[kPipelineStreams];
  for (int c = 0; c < chunks && static_cast<long long>(c + 1) * chunk_size <= n; ++c) {
    const int first = c * chunk_size;
    const std::size_t bytes = static_cast<std::size_t>(chunk_size) * sizeof(float);
    const cudaStream_t stream = streams[c % kPipelineStreams].get();
    CUDA_CHECK(cudaMemcpyAsync(d_in + first, in + first, bytes, cudaMemcpyHostToDevice, stream));
    transform_async(d_in + first, d_out + first, chunk_size, work, stream);
    CUDA_CHECK(cudaMemcpyAsync(out + first, d_out + first, bytes, cudaMemcpyDeviceToHost, stream));
  }
  (void)timeline;
  for (StreamGuard& stream : streams) stream.synchronize();
}
