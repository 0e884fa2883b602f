#pragma once
// Given helpers for lesson 06's exercise and solution.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "shared_matmul.h"

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

// Blocks of kTile x kTile threads, enough of them to cover an m x n matrix: x across the
// columns, y down the rows.
inline dim3 tile_grid(int m, int n) { return dim3((n + kTile - 1) / kTile, (m + kTile - 1) / kTile); }
