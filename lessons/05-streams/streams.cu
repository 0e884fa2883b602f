// Lesson 05: streams. Read README.md first: each TODO(step N) below is "Step N" there.
#include "streams.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "stepwise/check.h"
#include "stepwise/event_timer.h"
#include "stepwise/todo.h"
#include "transform.h"

namespace {

[[maybe_unused]] constexpr int kThreadsPerBlock = 256;

// Given: the argument checks every function starts with.
[[maybe_unused]] void check_arguments(int n, int work) {
  if (n < 0) throw std::invalid_argument("n must be 0 or more, got " + std::to_string(n));
  if (work < 0) throw std::invalid_argument("work must be 0 or more, got " + std::to_string(work));
}

}  // namespace

CopyTiming timed_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  // TODO(step 1): two stepwise::GpuEvents, start and stop. Record start on `stream`; read
  // std::chrono::steady_clock::now(); queue cudaMemcpyAsync(dst, src, bytes, kind, stream)
  // inside CUDA_CHECK; read the clock again; record stop on `stream`. Return call_ms (the two
  // clock readings apart, in ms) and gpu_ms = stepwise::elapsed_ms(start, stop), which waits
  // for the copy. Delete the line below.
  STEPWISE_TODO(1);
}

__global__ void transform_kernel(const float* in, float* out, int n, int work) {
  // TODO(step 2): one thread per element: the global index i, and if i < n,
  // out[i] = transform(in[i], work).
}

void transform_async(const float* d_in, float* d_out, int n, int work, cudaStream_t stream) {
  // TODO(step 2): check_arguments(n, work); return when n == 0; launch transform_kernel with
  // blocks of kThreadsPerBlock threads, enough blocks for n (round up), on `stream` (the fourth
  // value in <<<blocks, threads, 0, stream>>>); CUDA_CHECK_LAUNCH(). Do not wait. Delete the
  // line below.
  STEPWISE_TODO(2);
}

void transform_one_stream(const float* in, float* out, float* d_in, float* d_out, int n, int work,
                          cudaStream_t stream) {
  // TODO(step 2): check_arguments(n, work); return when n == 0. Queue on `stream`: a
  // cudaMemcpyAsync of the n floats from in to d_in, transform_async(d_in, d_out, ...), and a
  // cudaMemcpyAsync from d_out back to out. Then cudaStreamSynchronize(stream): only after it
  // may anyone read out. Check every call with CUDA_CHECK. Delete the line below.
  STEPWISE_TODO(2);
}

StreamGuard::StreamGuard() {
  // TODO(step 3): create stream_ as a stream that does not wait for the legacy default stream
  // (README, "Streams and the default stream"), the call checked with CUDA_CHECK. Delete the
  // line below.
  STEPWISE_TODO(3);
}

StreamGuard::~StreamGuard() {
  // TODO(step 3): wait with cudaStreamSynchronize(stream_), WITHOUT CUDA_CHECK (a destructor must
  // not throw); if it did not return cudaSuccess, print one line to stderr with
  // cudaGetErrorString of the error. Then cudaStreamDestroy(stream_).
}

void StreamGuard::synchronize() {
  // TODO(step 3): CUDA_CHECK(cudaStreamSynchronize(stream_)). Delete the line below.
  STEPWISE_TODO(3);
}

void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline) {
  // TODO(step 4): check_arguments(n, work); throw std::invalid_argument when chunks < 1; return
  // when n == 0. The chunk size is ceil(n / chunks) (compute it in long long). Make
  // kPipelineStreams StreamGuards. For each chunk c whose first index is below n: its count (the
  // last chunk is shorter), its stream streams[c % kPipelineStreams].get(), and on that stream
  // the three stages of step 2 for just this chunk (pointers + first, bytes of count floats),
  // each queued through on_timeline(timeline, c % kPipelineStreams, Stage::..., c, stream,
  // [&] { ... }). Do not wait inside the loop. After it, synchronize() every guard.
  // Delete the line below.
  STEPWISE_TODO(4);
}
