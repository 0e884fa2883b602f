// broken: timed_copy records its second event before it queues the copy (and then waits for the stream), so gpu_ms times nothing
// fails: TimedCopy.CopiesBothWaysAndTimesTheCopy
// expect: timed_copy's gpu_ms \(the copy to the device\) says .* the trace shows the copy took
// (The rest is the reference solution.)
#include <chrono>

#include "streams.h"
#define timed_copy reference_timed_copy
#include "solutions/05-streams/streams.cu"
#undef timed_copy

CopyTiming timed_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  stepwise::GpuEvent start, stop;
  start.record(stream);
  stop.record(stream);  // too early: nothing is queued between the two marks
  const auto call_start = std::chrono::steady_clock::now();
  CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream));
  const auto call_end = std::chrono::steady_clock::now();
  CopyTiming timing;
  timing.call_ms = std::chrono::duration<double, std::milli>(call_end - call_start).count();
  timing.gpu_ms = stepwise::elapsed_ms(start, stop);
  CUDA_CHECK(cudaStreamSynchronize(stream));  // the copy is done when it returns, as promised
  return timing;
}
