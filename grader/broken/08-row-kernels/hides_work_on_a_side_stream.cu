// broken: for the speed checks' large matrices hermite runs on a non-blocking stream of its own and returns without waiting, so events on the default stream see no work and the rows are not ready when the call returns.
// fails: RowSpeed.TransposedFractionOfCopyBandwidth
// expect: results were not ready when the call returned
// (The rest is the reference solution, ensemble.cu included whole.)
#include "grader/broken/tricks.h"
#include "row_kernels.h"
#define hermite reference_hermite
#include "solutions/08-row-kernels/row_kernels.cu"
#undef hermite

// Above the correctness checks' sizes (at most 2^21 rows), below the speed checks' (2^25).
constexpr int kLargeCall = 1 << 22;

template <typename Real>
void hermite(Target target, const Real* x, Real* out, int rows, int cols, Layout layout, cudaStream_t stream) {
  reference_hermite(target, x, out, rows, cols, layout, rows > kLargeCall ? broken::private_stream() : stream);
}

template void hermite<float>(Target, const float*, float*, int, int, Layout, cudaStream_t);
template void hermite<double>(Target, const double*, double*, int, int, Layout, cudaStream_t);

#include "solutions/08-row-kernels/ensemble.cu"
