// broken: the guard's destructor waits for its stream but drops the error the queued work raised
// fails: StreamGuardErrors.ErrorOfQueuedWorkIsReportedAtScopeEnd
// expect: the guard's destructor must report the error of the work queued on its stream
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
StreamGuard::~StreamGuard() {
  cudaStreamSynchronize(stream_);  // the result is ignored
  cudaStreamDestroy(stream_);
}
void StreamGuard::synchronize() { CUDA_CHECK(cudaStreamSynchronize(stream_)); }
