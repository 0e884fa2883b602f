// broken: for the speed checks' large matrices hermite runs on a non-blocking stream of its own and returns without waiting, so events on the default stream see no work and the rows are not ready when the call returns.
// fails: RowSpeed.TransposedFractionOfCopyBandwidth
// expect: results were not ready when the call returned
// (The rest is the reference solution, ensemble.cu included whole.)
#include "grader/broken/tricks.h"
#include "row_kernels.h"
#define hermite reference_hermite
#include "solutions/08-row-kernels/row_kernels.cu"
#undef hermite

template <typename Real>
void hermite(Target target, const Real* x, Real* out, int rows, int cols, Layout layout, cudaStream_t stream) {
  const bool large = static_cast<long long>(rows) >= broken::kSpeedCheckSize;  // the correctness checks stay below
  reference_hermite(target, x, out, rows, cols, layout, large ? broken::private_stream() : stream);
}

template void hermite<float>(Target, const float*, float*, int, int, Layout, cudaStream_t);
template void hermite<double>(Target, const double*, double*, int, int, Layout, cudaStream_t);

#include "solutions/08-row-kernels/ensemble.cu"
