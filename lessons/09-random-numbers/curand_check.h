#pragma once
// Error checking for cuRAND calls, as CUDA_CHECK does for the runtime (stepwise/check.h).
//
//   CURAND_CHECK(curandGenerateUniform(generator, out, n));   // throws std::runtime_error
//
// cuRAND's calls return a curandStatus_t, not a cudaError_t, so they need their own check.
#include <curand.h>

#include "stepwise/library_error.h"

namespace stepwise {

inline const char* curand_status_name(curandStatus_t status) {
  switch (status) {
    case CURAND_STATUS_SUCCESS: return "CURAND_STATUS_SUCCESS";
    case CURAND_STATUS_VERSION_MISMATCH: return "CURAND_STATUS_VERSION_MISMATCH";
    case CURAND_STATUS_NOT_INITIALIZED: return "CURAND_STATUS_NOT_INITIALIZED (no generator: was it created?)";
    case CURAND_STATUS_ALLOCATION_FAILED: return "CURAND_STATUS_ALLOCATION_FAILED (out of memory)";
    case CURAND_STATUS_TYPE_ERROR: return "CURAND_STATUS_TYPE_ERROR";
    case CURAND_STATUS_OUT_OF_RANGE: return "CURAND_STATUS_OUT_OF_RANGE";
    case CURAND_STATUS_LENGTH_NOT_MULTIPLE: return "CURAND_STATUS_LENGTH_NOT_MULTIPLE";
    case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED: return "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED";
    case CURAND_STATUS_LAUNCH_FAILURE: return "CURAND_STATUS_LAUNCH_FAILURE (a kernel failed)";
    case CURAND_STATUS_PREEXISTING_FAILURE: return "CURAND_STATUS_PREEXISTING_FAILURE (an earlier CUDA error)";
    case CURAND_STATUS_INITIALIZATION_FAILED: return "CURAND_STATUS_INITIALIZATION_FAILED (no GPU or driver?)";
    case CURAND_STATUS_ARCH_MISMATCH: return "CURAND_STATUS_ARCH_MISMATCH";
    case CURAND_STATUS_INTERNAL_ERROR: return "CURAND_STATUS_INTERNAL_ERROR";
    default: return "an unknown cuRAND status";
  }
}

}  // namespace stepwise

// The message, "<call> failed at <file>:<line>: <status>", is put together out of line
// (stepwise/library_error.h): <string> here would add a third of a second to every compile of
// the lesson's files.
#define CURAND_CHECK(call)                                                               \
  do {                                                                                   \
    const curandStatus_t stepwise_status_ = (call);                                      \
    if (stepwise_status_ != CURAND_STATUS_SUCCESS)                                       \
      ::stepwise::throw_library_error(#call, __FILE__, __LINE__,                         \
                                      ::stepwise::curand_status_name(stepwise_status_)); \
  } while (0)
