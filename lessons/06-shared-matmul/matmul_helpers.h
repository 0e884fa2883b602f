#pragma once
// Given helpers for lesson 06's exercise and solution.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "shared_matmul.h"

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
