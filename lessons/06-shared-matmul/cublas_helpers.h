#pragma once
// Given helpers for lesson 06's step 3 (cublas_calls.cpp), exercise and solution. Apart from
// matmul_helpers.h: cuBLAS's header is large, and the kernels' files compile without it.
#include <cublas_v2.h>

#include <stdexcept>
#include <string>

// Step 3: the lesson's cuBLAS handle: created on the first call, in plain FP32 math (no TF32), and
// the same handle on every later call, so no call but the first pays for creating it.
cublasHandle_t cublas_handle();

// Throws with cuBLAS's own name for a failed status, as CUDA_CHECK does for CUDA calls:
//   cublas_check(cublasCreate(&handle), "cublasCreate");
inline void cublas_check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: " + cublasGetStatusName(status) + " (" +
                             cublasGetStatusString(status) + ")");
}
