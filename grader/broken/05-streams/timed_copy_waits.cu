// broken: timed_copy uses cudaMemcpy, which returns only when the copy is done, so call_ms is the whole copy
// fails: TimedCopy.AsyncCopyFromPinnedMemoryReturnsAtOnce
// expect: call_ms must time only the call
// (The rest is the reference solution.)
#include <chrono>

#include "streams.h"
#define timed_copy reference_timed_copy
#include "solutions/05-streams/streams.cu"
#undef timed_copy

CopyTiming timed_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  stepwise::GpuEvent start, stop;
  start.record(stream);
  const auto call_start = std::chrono::steady_clock::now();
  CUDA_CHECK(cudaMemcpy(dst, src, bytes, kind));
  const auto call_end = std::chrono::steady_clock::now();
  stop.record(stream);
  CopyTiming timing;
  timing.call_ms = std::chrono::duration<double, std::milli>(call_end - call_start).count();
  timing.gpu_ms = stepwise::elapsed_ms(start, stop);
  return timing;
}
