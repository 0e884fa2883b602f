#pragma once
// Tricks a student might use to get a green speed row without the work, shared by the broken
// submissions that prove the grader catches them.
#include <cuda_runtime.h>

#include <tuple>

#include "stepwise/check.h"

namespace broken {

// True when called with the same arguments as the call before: the "skip repeated calls" trick
// returns at once then, since the output "must still be there".
template <typename... Args>
bool same_as_last_call(Args... args) {
  static bool called = false;
  static std::tuple<Args...> last;
  const bool same = called && last == std::make_tuple(args...);
  called = true;
  last = std::make_tuple(args...);
  return same;
}

// A stream of the submission's own that does not wait for, and is not waited for by, the
// default stream: work launched on it and left running escapes events recorded on the default
// stream ("hide the work from the timer").
inline cudaStream_t private_stream() {
  static cudaStream_t stream = [] {
    cudaStream_t s = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
  }();
  return stream;
}

// Sizes above every correctness check's, so the tricks only touch the speed checks' calls.
constexpr long long kSpeedCheckSize = 1LL << 25;

}  // namespace broken
