// broken: the pipeline waits for each chunk's stream right after queueing the chunk, so no chunk's copies overlap another's kernel (right results, three streams, async copies)
// fails: Pipeline.OverlapsCopiesAndKernelsOfDifferentChunks
// expect: step 4 \(transform_pipelined\) .*overlapped too little: 0 of its 8 kernels ran while a copy of another chunk did
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
  StreamGuard streams[kPipelineStreams];
  for (int c = 0; c < chunks && static_cast<long long>(c) * chunk_size < n; ++c) {
    const int first = c * chunk_size;
    const int count = std::min(chunk_size, n - first);
    const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(float);
    const int row = c % kPipelineStreams;
    const cudaStream_t stream = streams[row].get();
    on_timeline(timeline, row, Stage::copy_in, c, stream, [&] {
      CUDA_CHECK(cudaMemcpyAsync(d_in + first, in + first, bytes, cudaMemcpyHostToDevice, stream));
    });
    on_timeline(timeline, row, Stage::kernel, c, stream,
                [&] { transform_async(d_in + first, d_out + first, count, work, stream); });
    on_timeline(timeline, row, Stage::copy_out, c, stream, [&] {
      CUDA_CHECK(cudaMemcpyAsync(out + first, d_out + first, bytes, cudaMemcpyDeviceToHost, stream));
    });
    streams[row].synchronize();  // the wait inside the loop: the pipeline empties after every chunk
  }
}
