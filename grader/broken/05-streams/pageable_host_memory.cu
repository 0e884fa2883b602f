// broken: the pipeline copies through std::vector buffers of its own (pageable memory), so no copy is asynchronous
// fails: PipelineSpeed.NearItsBound
// expect: too slow for '05-streams/PipelineSpeed.NearItsBound'
// (The rest is the reference solution.)
#include <cstring>
#include <vector>

#include "streams.h"
#define transform_pipelined reference_transform_pipelined
#include "solutions/05-streams/streams.cu"
#undef transform_pipelined

void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline) {
  if (chunks < 1) throw std::invalid_argument("chunks must be 1 or more");
  if (n <= 0) return;
  std::vector<float> staged_in(in, in + n), staged_out(n);  // "a copy I own", in pageable memory
  const int chunk_size = static_cast<int>((static_cast<long long>(n) + chunks - 1) / chunks);
  {
    StreamGuard streams[kPipelineStreams];
    for (int c = 0; c < chunks && static_cast<long long>(c) * chunk_size < n; ++c) {
      const int first = c * chunk_size;
      const int count = std::min(chunk_size, n - first);
      const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(float);
      const cudaStream_t stream = streams[c % kPipelineStreams].get();
      CUDA_CHECK(cudaMemcpyAsync(d_in + first, staged_in.data() + first, bytes, cudaMemcpyHostToDevice, stream));
      transform_async(d_in + first, d_out + first, count, work, stream);
      CUDA_CHECK(cudaMemcpyAsync(staged_out.data() + first, d_out + first, bytes, cudaMemcpyDeviceToHost, stream));
    }
    for (StreamGuard& stream : streams) stream.synchronize();
  }
  (void)timeline;
  std::memcpy(out, staged_out.data(), staged_out.size() * sizeof(float));
}
