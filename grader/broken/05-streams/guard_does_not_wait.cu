// broken: the guard's destructor destroys its stream without waiting for it (cudaStreamDestroy returns at once and lets the queued work finish later), so the scope ends before its work does
// fails: StreamGuard.WorkIsFinishedWhenTheScopeEnds
// expect: step 3 \(StreamGuard.* was still running .* after the call returned
// (The rest is the reference solution.)
#include "streams.h"

// The reference guard under another name, for the rest of the reference solution to use.
class ReferenceStreamGuard {
 public:
  ReferenceStreamGuard();
  ~ReferenceStreamGuard();
  cudaStream_t get() const { return stream_; }
  void synchronize();

 private:
  cudaStream_t stream_ = nullptr;
};
#define StreamGuard ReferenceStreamGuard
#include "solutions/05-streams/streams.cu"
#undef StreamGuard

StreamGuard::StreamGuard() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
StreamGuard::~StreamGuard() { cudaStreamDestroy(stream_); }  // no wait
void StreamGuard::synchronize() { CUDA_CHECK(cudaStreamSynchronize(stream_)); }
