// broken: power_sums covers rows + 1 rows (an off-by-one in the size), so in the row-major layout it writes a whole row past the end of the output (and reads one x past the end of the input).
// fails: Rows.PowerSumsRowMajor
// expect: wrote past the end of the output
// (The rest is the reference solution, ensemble.cu included whole.)
#include "row_kernels.h"
#define power_sums reference_power_sums
#include "solutions/08-row-kernels/row_kernels.cu"
#undef power_sums

template <typename Real>
void power_sums(Target target, const Real* x, Real* out, int rows, int cols, Layout layout, cudaStream_t stream) {
  reference_power_sums(target, x, out, rows == 0 ? 0 : rows + 1, cols, layout, stream);
}

template void power_sums<float>(Target, const float*, float*, int, int, Layout, cudaStream_t);
template void power_sums<double>(Target, const double*, double*, int, int, Layout, cudaStream_t);

#include "solutions/08-row-kernels/ensemble.cu"
