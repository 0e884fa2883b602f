#pragma once
// Lesson 08, steps 1 and 3: apply_rows(), the C++ cousin of Numba's guvectorize. It applies a
// row function `op(x, row)` to every row of a matrix: x is that row's input (one value), row the
// row's `cols` outputs, one CPU loop iteration or one GPU thread per row. The seed wanted
// exactly this signature, ()->(n), and guvectorize could not express it.
//
//   struct Powers { __host__ __device__ void operator()(float x, RowView<float> row) const {...} };
//   apply_rows(Target::gpu, Powers{}, d_x, d_out, rows, cols, Layout::row_major);
//
// A template, so it lives in a header: the compiler makes one kernel per row function.
#include <algorithm>
#include <cstddef>

#include "row_view.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

// The view of row r of a rows x cols matrix stored at `out` in `layout`.
template <typename T>
__host__ __device__ RowView<T> row_of(T* out, int r, int rows, int cols, Layout layout) {
  // TODO(step 1): Layout::row_major: the row starts at out + r * cols (multiply in std::size_t,
  // a large matrix has more than 2^31 values) and its values are next to each other (stride 1).
  // TODO(step 3): Layout::column_major: the row starts at out + r and its values are a whole
  // column apart (stride rows). Replace the line below.
  return {out, 0, cols};
}

// TODO(step 1): one thread per row, in a grid-stride loop over the rows (lesson 01, step 2):
// for row r, op(x[r], row_of(out, r, rows, cols, layout)).
template <typename T, typename RowFunction>
__global__ void apply_rows_kernel(RowFunction op, const T* x, T* out, int rows, int cols, Layout layout) {}

template <typename T, typename RowFunction>
void apply_rows(Target target, RowFunction op, const T* x, T* out, int rows, int cols, Layout layout,
                cudaStream_t stream = nullptr) {
  check_matrix_size("apply_rows", rows, cols);
  // TODO(step 1): return when there is nothing to do (rows or cols 0). Target::cpu: a plain loop
  // over the rows, calling op as the kernel does. Target::gpu: launch apply_rows_kernel on
  // `stream` with blocks of 256 threads, enough of them for the rows but at most 65535 (the
  // grid-stride loop does the rest), then CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(1);
  // TODO(step 3): make row_of handle Layout::column_major, then delete the line below.
  if (layout == Layout::column_major) STEPWISE_TODO(3);
}
