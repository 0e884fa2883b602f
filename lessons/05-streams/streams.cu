// Lesson 05: streams. Read README.md first: each TODO(step N) below is "Step N" there.
#include "streams.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "stepwise/arguments.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"
#include "stepwise/todo.h"
#include "transform.h"

namespace {

[[maybe_unused]] constexpr int kThreadsPerBlock = 256;

// Given: the argument checks every function starts with.
[[maybe_unused]] void check_arguments(int n, int work, const char* function) {
  stepwise::require_at_least(n, 0, "n", function);
  stepwise::require_at_least(work, 0, "work", function);
}

}  // namespace

CopyTiming timed_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  // TODO(step 1): queue an asynchronous copy of `bytes` from src to dst on `stream` (checked),
  // and measure it twice: call_ms, how long the host spent in the call that queued it (host
  // clock, in ms), and gpu_ms, how long the copy took on the GPU (a pair of GPU events on
  // `stream` around it, read only once the copy has finished). README.md, "Step 1", says in
  // which order. Delete the line below.
  STEPWISE_TODO(1);
}

__global__ void transform_kernel(const float* in, float* out, int n, int work) {
  // TODO(step 2): one thread per element: the global index i, and if i < n,
  // out[i] = transform(in[i], work).
}

void transform_async(const float* d_in, float* d_out, int n, int work, cudaStream_t stream) {
  // TODO(step 2): check_arguments(n, work, "transform_async"); return when n == 0; launch
  // transform_kernel with blocks of kThreadsPerBlock threads, enough blocks for n (round up as
  // (n - 1) / 256 + 1), on `stream` (the fourth value in <<<blocks, threads, 0, stream>>>);
  // CUDA_CHECK_LAUNCH(). Do not wait. Delete the line below.
  STEPWISE_TODO(2);
}

void transform_one_stream(const float* in, float* out, float* d_in, float* d_out, int n, int work,
                          cudaStream_t stream) {
  // TODO(step 2): check_arguments(n, work, "transform_one_stream"); return when n == 0. Queue
  // on `stream`, in order: the n floats copied from in to d_in, transform_async(d_in, d_out,
  // ...), and the results copied from d_out back to out. Return only once the stream has
  // finished that work: only then may anyone read out. Check every call. Delete the line below.
  STEPWISE_TODO(2);
}

StreamGuard::StreamGuard() {
  // TODO(step 3): create stream_ as a stream that does not wait for the legacy default stream
  // (README, "Streams and the default stream"), the call checked with CUDA_CHECK. Delete the
  // line below.
  STEPWISE_TODO(3);
}

StreamGuard::~StreamGuard() {
  // TODO(step 3): wait until the work queued on stream_ has finished, without throwing (a
  // destructor must not throw, so no CUDA_CHECK): if the wait reports an error, print one line
  // to stderr with CUDA's text for it. Then destroy the stream.
}

void StreamGuard::synchronize() {
  // TODO(step 3): wait until the work queued on stream_ has finished, and throw (through
  // CUDA_CHECK) if the wait reports an error. Delete the line below.
  STEPWISE_TODO(3);
}

void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline) {
  // TODO(step 4): check_arguments(n, work, "transform_pipelined");
  // stepwise::require_at_least(chunks, 1, "chunks", "transform_pipelined"); return when n == 0. The
  // chunk size is ceil(n / chunks) = (n - 1) / chunks + 1 (n + chunks - 1 overflows int for chunks
  // near INT_MAX), and each chunk's first index a long long. Make kPipelineStreams StreamGuards. For
  // each chunk c whose first index is below n: its count (the last chunk is shorter), its stream
  // streams[c % kPipelineStreams].get(), and on that stream the three stages of step 2 for just this
  // chunk (pointers + first, bytes of count floats), each queued through on_timeline(timeline, c %
  // kPipelineStreams, Stage::..., c, stream, [&] { ... }). Do not wait inside the loop. After it,
  // synchronize() every guard. Delete the line below.
  STEPWISE_TODO(4);
}
