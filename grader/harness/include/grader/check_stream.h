#pragma once
// A stream a check creates and passes to the functions that take one: non-blocking, so that work
// the code under test leaves on the legacy default stream, or on a stream of its own, shows in
// the trace (grader/trace.h) as not on the stream given. It does not wait for the default stream,
// where the grader writes inputs and poison: checks synchronise the device before each call.
#include <cuda_runtime.h>

#include "stepwise/check.h"

namespace grader {

class CheckStream {
 public:
  CheckStream() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~CheckStream() { cudaStreamDestroy(stream_); }
  CheckStream(const CheckStream&) = delete;
  CheckStream& operator=(const CheckStream&) = delete;
  operator cudaStream_t() const { return stream_; }
  cudaStream_t get() const { return stream_; }
  // Waits for the work on the stream (the functions under test return without waiting).
  void finish() const { CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace grader
