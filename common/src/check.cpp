#include "stepwise/check.h"
#include "stepwise/cuda_error.h"

#include "stepwise/device_info.h"

namespace stepwise {

std::string fix_hint(cudaError_t code) {
  switch (code) {
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorInsufficientDriver:
    case cudaErrorNoDevice: {
      const GpuStatus status = gpu_status();
      return status.fix.empty() ? status.summary : status.fix;
    }
    case cudaErrorMemoryAllocation:
      return "the GPU has too little free memory: close other programs that use it (nvidia-smi "
             "lists them) or use a smaller problem size";
    case cudaErrorInvalidConfiguration:
      return "the launch asked for more than the GPU allows: at most 1024 threads per block, "
             "and a grid with at least one block in each dimension";
    default:
      return "";
  }
}

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  // Clear the runtime's record of this error, so that a caller who catches it does not see it
  // again from the next CUDA_CHECK_LAUNCH(). (Errors that break the context stay regardless.)
  cudaGetLastError();
  std::string message = std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                        ": " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
  // CUDA 13 reports a launch with too many threads per block as an invalid value.
  const bool rejected_launch = code == cudaErrorInvalidValue && std::string(call) == "kernel launch";
  const std::string hint = fix_hint(rejected_launch ? cudaErrorInvalidConfiguration : code);
  if (!hint.empty()) message += "\n  fix: " + hint;
  throw CudaError(code, message);
}

}  // namespace stepwise
