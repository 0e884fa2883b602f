#pragma once
// What CUDA_CHECK and CUDA_CHECK_LAUNCH (stepwise/check.h) throw: include this header where the
// error is caught or explained; code that only checks its calls needs check.h alone.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace stepwise {

// The message names the failing call, file and line, CUDA's error text, and for the errors
// people meet first (wrong architecture, old driver, no GPU) how to fix them.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

// The fix for an error with a known cause, in one sentence; empty when there is none.
std::string fix_hint(cudaError_t code);

}  // namespace stepwise
