// broken: in the column-major layout row r's values are placed cols apart instead of rows apart (the two sizes swapped in the index), so columns overlap and the last rows land past the end.
// fails: Transposed.PowerSumsColumnMajor:Transposed.HermiteColumnMajor
// expect: (wrote past the end of the output|values differ from the CPU reference)
// (The rest is the reference solution, ensemble.cu included whole. The helper's three templates
// are replaced together: the solution's kernel would otherwise keep calling the solution's row_of.)
#define row_of reference_row_of
#define apply_rows_kernel reference_apply_rows_kernel
#define apply_rows reference_apply_rows
#include "row_kernels.h"
#undef row_of
#undef apply_rows_kernel
#undef apply_rows

template <typename T>
__host__ __device__ RowView<T> row_of(T* out, int r, int rows, int cols, Layout layout) {
  if (layout == Layout::row_major) return {out + static_cast<std::size_t>(r) * cols, 1, cols};
  return {out + r, static_cast<std::size_t>(cols), cols};  // the bug: the stride is rows
}

template <typename T, typename RowFunction>
__global__ void apply_rows_kernel(RowFunction op, const T* x, T* out, int rows, int cols, Layout layout) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x)
    op(x[r], row_of(out, r, rows, cols, layout));
}

template <typename T, typename RowFunction>
void apply_rows(Target target, RowFunction op, const T* x, T* out, int rows, int cols, Layout layout,
                cudaStream_t stream = nullptr) {
  check_matrix_size("apply_rows", rows, cols);
  if (rows == 0 || cols == 0) return;
  if (target == Target::cpu) {
    for (int r = 0; r < rows; ++r) op(x[r], row_of(out, r, rows, cols, layout));
    return;
  }
  const int blocks = static_cast<int>(std::min<long long>((rows + 255) / 256, 65535));
  apply_rows_kernel<<<blocks, 256, 0, stream>>>(op, x, out, rows, cols, layout);
  CUDA_CHECK_LAUNCH();
}

#include "solutions/08-row-kernels/row_kernels.cu"

#include "solutions/08-row-kernels/ensemble.cu"
