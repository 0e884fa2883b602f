// broken: the pipeline's kernels read and write the caller's pinned host memory directly (it is mapped into the GPU's address space), so it copies nothing: right results, chunks on three streams, but no copy to overlap
// fails: Pipeline.OverlapsCopiesAndKernelsOfDifferentChunks
// expect: step 4 \(transform_pipelined\) copied 0 MB host to device in 0 copies
// (The rest is the reference solution.)
#include "streams.h"
#define transform_pipelined reference_transform_pipelined
#include "solutions/05-streams/streams.cu"
#undef transform_pipelined

void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline) {
  if (chunks < 1) throw std::invalid_argument("chunks must be 1 or more");
  if (n <= 0) return;
  (void)d_in;
  (void)d_out;
  const int chunk_size = static_cast<int>((static_cast<long long>(n) + chunks - 1) / chunks);
  StreamGuard streams[kPipelineStreams];
  for (int c = 0; c < chunks && static_cast<long long>(c) * chunk_size < n; ++c) {
    const int first = c * chunk_size;
    const int count = std::min(chunk_size, n - first);
    const int row = c % kPipelineStreams;
    const cudaStream_t stream = streams[row].get();
    on_timeline(timeline, row, Stage::kernel, c, stream, [&] { transform_async(in + first, out + first, count, work, stream); });
  }
  for (StreamGuard& stream : streams) stream.synchronize();
}
