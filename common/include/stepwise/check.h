#pragma once
// Error checking for CUDA calls and kernel launches.
//
//   CUDA_CHECK(cudaMalloc(&p, bytes));   // throws stepwise::CudaError if the call fails
//   my_kernel<<<grid, block>>>(...);
//   CUDA_CHECK_LAUNCH();                 // throws if the launch itself was rejected
//
// A launch is asynchronous: CUDA_CHECK_LAUNCH catches a launch that could not start (too many
// threads per block, no code for this GPU); an error inside the running kernel shows up at the
// next call that waits for the GPU, e.g. CUDA_CHECK(cudaDeviceSynchronize()).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace stepwise {

// What CUDA_CHECK throws: the message names the failing call, file and line, CUDA's error text,
// and for the errors people meet first (wrong architecture, old driver, no GPU) how to fix them.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);

// The fix for an error with a known cause, in one sentence; empty when there is none.
std::string fix_hint(cudaError_t code);

}  // namespace stepwise

#define CUDA_CHECK(call)                                                  \
  do {                                                                    \
    const cudaError_t stepwise_err_ = (call);                             \
    if (stepwise_err_ != cudaSuccess)                                     \
      ::stepwise::throw_cuda_error(stepwise_err_, #call, __FILE__, __LINE__); \
  } while (0)

#define CUDA_CHECK_LAUNCH()                                                     \
  do {                                                                          \
    const cudaError_t stepwise_err_ = cudaGetLastError();                       \
    if (stepwise_err_ != cudaSuccess)                                           \
      ::stepwise::throw_cuda_error(stepwise_err_, "kernel launch", __FILE__, __LINE__); \
  } while (0)
