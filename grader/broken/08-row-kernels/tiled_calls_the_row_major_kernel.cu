// broken: hermite_row_major_tiled calls step 2's row-major hermite (one thread per row, stores a row apart), so it has no tile and its stores are not coalesced: right values, the technique skipped
// fails: Tiled.HermiteRowMajor
// expect: step 3 \(hermite_row_major_tiled\) .*ran `[^`]*apply_rows_kernel[^`]*`, the kernel of step 2 \(hermite, row-major\)
// (The rest is the reference solution, ensemble.cu included whole.)
#include "row_kernels.h"
#define hermite_row_major_tiled reference_hermite_row_major_tiled
#include "solutions/08-row-kernels/row_kernels.cu"
#undef hermite_row_major_tiled

template <typename Real>
void hermite_row_major_tiled(const Real* x, Real* out, int rows, int cols, cudaStream_t stream) {
  check_matrix_size("hermite_row_major_tiled", rows, cols);
  if (rows == 0) return;
  if (cols < 2 || cols > kMaxTiledCols) throw std::invalid_argument("hermite_row_major_tiled: cols out of range");
  hermite(Target::gpu, x, out, rows, cols, Layout::row_major, stream);
}

template void hermite_row_major_tiled<float>(const float*, float*, int, int, cudaStream_t);
template void hermite_row_major_tiled<double>(const double*, double*, int, int, cudaStream_t);

#include "solutions/08-row-kernels/ensemble.cu"
