#pragma once
// Lesson 08, steps 2 and 3: seed 004's row functions of x, one row of `cols` values per input,
// on a rows x cols matrix in either layout (apply_rows.cuh: Target, Layout).
//
//   power sums (the seed's first version):  out[r][k] = x + x^2 + ... + x^(k+1)
//   Hermite (the seed's "actual function"): out[r][k] = He_k(x) / sqrt(k!), where
//       He_0 = 1, He_1 = x, He_k = x He_(k-1) - (k-1) He_(k-2)
// with x = x[r]. Real is float or double. With Target::gpu, x and out are device pointers, the
// work is launched on `stream` and the call returns without waiting; with Target::cpu they are
// host pointers and the call returns when done. rows or cols < 0 throws std::invalid_argument
// and changes nothing; rows == 0 or cols == 0 does nothing. Hermite needs cols >= 2, or 0.
#include <cuda_runtime.h>

#include <apply_rows.cuh>  // the track's own (exercise or solution): see CMakeLists.txt

// Step 2: the two row functions, through apply_rows.
template <typename Real>
void power_sums(Target target, const Real* x, Real* out, int rows, int cols, Layout layout = Layout::row_major,
                cudaStream_t stream = nullptr);
template <typename Real>
void hermite(Target target, const Real* x, Real* out, int rows, int cols, Layout layout = Layout::row_major,
             cudaStream_t stream = nullptr);

// Step 3: Hermite into a row-major matrix with coalesced stores: each block computes its rows into
// a tile in shared memory and writes the tile out as one contiguous stretch. Device pointers;
// cols from 2 to kMaxTiledCols (else std::invalid_argument), or rows == 0.
constexpr int kMaxTiledCols = 128;
template <typename Real>
void hermite_row_major_tiled(const Real* x, Real* out, int rows, int cols, cudaStream_t stream = nullptr);
