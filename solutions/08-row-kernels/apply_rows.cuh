#pragma once
// Lesson 08 reference solution, steps 1 and 3: apply_rows(), the C++ cousin of Numba's
// guvectorize. It applies a row function `op(x, row)` to every row of a matrix: x is that row's
// input (one value), row the row's `cols` outputs, one CPU loop iteration or one GPU thread per
// row. The seed wanted exactly this signature, ()->(n), and guvectorize could not express it.
//
//   struct Powers { __host__ __device__ void operator()(float x, RowView<float> row) const {...} };
//   apply_rows(Target::gpu, Powers{}, d_x, d_out, rows, cols, Layout::row_major);
//
// A template, so it lives in a header: the compiler makes one kernel per row function.
#include <algorithm>
#include <cstddef>

#include "row_view.h"
#include "stepwise/check.h"

// The view of row r of a rows x cols matrix stored at `out` in `layout`.
// [docs:row-of]
template <typename T>
__host__ __device__ RowView<T> row_of(T* out, int r, int rows, int cols, Layout layout) {
  if (layout == Layout::row_major) return {out + static_cast<std::size_t>(r) * cols, 1, cols};
  return {out + r, static_cast<std::size_t>(rows), cols};
}
// [docs:end]

// One thread per row, in a grid-stride loop over the rows. The row index is 64 bits: near
// rows = INT_MAX a thread's last step, r + stride, passes INT_MAX (an int wraps negative).
// [docs:kernel]
template <typename T, typename RowFunction>
__global__ void apply_rows_kernel(RowFunction op, const T* x, T* out, int rows, int cols, Layout layout) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; r < rows; r += stride)
    op(x[r], row_of(out, static_cast<int>(r), rows, cols, layout));  // r < rows: an int
}
// [docs:end]

template <typename T, typename RowFunction>
void apply_rows(Target target, RowFunction op, const T* x, T* out, int rows, int cols, Layout layout,
                cudaStream_t stream = nullptr) {
  check_matrix_size("apply_rows", rows, cols);
  if (rows == 0 || cols == 0) return;
  if (target == Target::cpu) {
    for (int r = 0; r < rows; ++r) op(x[r], row_of(out, r, rows, cols, layout));
    return;
  }
  constexpr int kThreads = 256;
  // Rounded up (not (rows + 255) / 256, which overflows int past INT_MAX - 255), at most 65535.
  const int blocks = std::min((rows - 1) / kThreads + 1, 65535);
  apply_rows_kernel<<<blocks, kThreads, 0, stream>>>(op, x, out, rows, cols, layout);
  CUDA_CHECK_LAUNCH();
}
