#pragma once
// Given helpers for lesson 06's kernels, exercise and solution.
#include <cuda_runtime.h>

#include "shared_matmul.h"

// Blocks of kTile x kTile threads, enough of them to cover an m x n matrix: x across the
// columns, y down the rows.
inline dim3 tile_grid(int m, int n) { return dim3((n + kTile - 1) / kTile, (m + kTile - 1) / kTile); }
