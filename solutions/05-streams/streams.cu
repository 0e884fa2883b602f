// Lesson 05 reference solution: timed copies, one stream, a stream guard, and a pipeline.
#include "streams.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "stepwise/arguments.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"
#include "transform.h"

namespace {

constexpr int kThreadsPerBlock = 256;

void check_arguments(int n, int work, const char* function) {
  stepwise::require_at_least(n, 0, "n", function);
  stepwise::require_at_least(work, 0, "work", function);
}

}  // namespace

// Step 1: the host clock around cudaMemcpyAsync says how long the call took to return; the
// events say how long the copy took on the GPU. From pinned memory the call returns at once;
// from pageable memory it returns only when the driver has staged the data.
CopyTiming timed_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  stepwise::GpuEvent start, stop;
  start.record(stream);
  const auto call_start = std::chrono::steady_clock::now();
  CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream));
  const auto call_end = std::chrono::steady_clock::now();
  stop.record(stream);
  CopyTiming timing;
  timing.call_ms = std::chrono::duration<double, std::milli>(call_end - call_start).count();
  timing.gpu_ms = stepwise::elapsed_ms(start, stop);  // waits for the stop mark: the copy is done
  return timing;
}

// Step 2
__global__ void transform_kernel(const float* in, float* out, int n, int work) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = transform(in[i], work);
}

void transform_async(const float* d_in, float* d_out, int n, int work, cudaStream_t stream) {
  check_arguments(n, work, "transform_async");
  if (n == 0) return;
  const int blocks = (n - 1) / kThreadsPerBlock + 1;  // rounded up; (n + 255) / 256 overflows near INT_MAX
  transform_kernel<<<blocks, kThreadsPerBlock, 0, stream>>>(d_in, d_out, n, work);
  CUDA_CHECK_LAUNCH();
}

void transform_one_stream(const float* in, float* out, float* d_in, float* d_out, int n, int work,
                          cudaStream_t stream) {
  check_arguments(n, work, "transform_one_stream");
  if (n == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  CUDA_CHECK(cudaMemcpyAsync(d_in, in, bytes, cudaMemcpyHostToDevice, stream));
  transform_async(d_in, d_out, n, work, stream);
  CUDA_CHECK(cudaMemcpyAsync(out, d_out, bytes, cudaMemcpyDeviceToHost, stream));
  // Until here every call only queued work. `out` may still hold old values (seed 000: "the data
  // may not be ready yet"); after the wait it holds the results.
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

// Step 3: Numba's `with stream.auto_synchronize():` as a C++ scope.
StreamGuard::StreamGuard() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }

StreamGuard::~StreamGuard() {
  const cudaError_t error = cudaStreamSynchronize(stream_);
  if (error != cudaSuccess)
    std::fprintf(stderr, "StreamGuard: the work queued on the stream failed: %s (%s)\n", cudaGetErrorString(error),
                 cudaGetErrorName(error));
  cudaStreamDestroy(stream_);
}

void StreamGuard::synchronize() { CUDA_CHECK(cudaStreamSynchronize(stream_)); }

// Step 4: chunk c goes to stream c % kPipelineStreams. The streams run independently, so while
// one chunk's kernel runs, the next chunk is copied in and the previous one copied out.
void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline) {
  check_arguments(n, work, "transform_pipelined");
  stepwise::require_at_least(chunks, 1, "chunks", "transform_pipelined");
  if (n == 0) return;
  // ceil(n / chunks) for n > 0; n + chunks - 1 would overflow int when chunks is near INT_MAX.
  const int chunk_size = (n - 1) / chunks + 1;
  StreamGuard streams[kPipelineStreams];
  for (int c = 0; c < chunks; ++c) {
    const long long first = static_cast<long long>(c) * chunk_size;
    if (first >= n) break;  // more chunks than values: the rest are empty
    const int count = static_cast<int>(std::min<long long>(chunk_size, n - first));
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
  }
  // Wait here, so that an error of the queued work is thrown; the guards would only print it.
  for (StreamGuard& stream : streams) stream.synchronize();
}
