// broken: in the column-major layout row r's values are placed cols apart instead of rows apart (the two sizes swapped in the index), so columns overlap and the last rows land past the end.
// fails: Transposed.PowerSumsColumnMajor:Transposed.HermiteColumnMajor
// expect: (wrote past the end of the output|values differ from the CPU reference)
// (The rest is the reference solution, ensemble.cu included whole. The solution's apply_rows
// stays; only row_of is replaced, for the two types the lesson uses, by explicit
// specialisations declared before the solution's row functions instantiate apply_rows.)
#include "row_kernels.h"

template <typename T>
__host__ __device__ RowView<T> row_of_swapped(T* out, int r, int rows, int cols, Layout layout) {
  if (layout == Layout::row_major) return {out + static_cast<std::size_t>(r) * cols, 1, cols};
  return {out + r, static_cast<std::size_t>(cols), cols};  // the bug: the stride is rows
}

template <>
__host__ __device__ RowView<float> row_of(float* out, int r, int rows, int cols, Layout layout) {
  return row_of_swapped(out, r, rows, cols, layout);
}
template <>
__host__ __device__ RowView<double> row_of(double* out, int r, int rows, int cols, Layout layout) {
  return row_of_swapped(out, r, rows, cols, layout);
}

#include "solutions/08-row-kernels/row_kernels.cu"

#include "solutions/08-row-kernels/ensemble.cu"
