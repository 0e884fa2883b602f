#pragma once
// Error checking for CUDA calls and kernel launches.
//
//   CUDA_CHECK(cudaMalloc(&p, bytes));   // throws stepwise::CudaError (cuda_error.h) if it fails
//   my_kernel<<<grid, block>>>(...);
//   CUDA_CHECK_LAUNCH();                 // throws if the launch itself was rejected
//
// A launch is asynchronous: CUDA_CHECK_LAUNCH catches a launch that could not start (too many
// threads per block, no code for this GPU); an error inside the running kernel shows up at the
// next call that waits for the GPU, e.g. CUDA_CHECK(cudaDeviceSynchronize()).
#include <cuda_runtime.h>

namespace stepwise {

// Throws stepwise::CudaError, declared in stepwise/cuda_error.h: only code that catches it needs
// that header (and the <string> it brings, a sixth of a small lesson file's compile time).
[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);

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
