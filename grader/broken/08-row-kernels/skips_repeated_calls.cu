// broken: right, but a hermite call with the same pointers, sizes and layout as the call before returns at once ("the rows are still there"), so timing repeated calls times nothing.
// fails: RowSpeed.TransposedFractionOfCopyBandwidth
// expect: output of the timed call is wrong: was the work skipped
// (The rest is the reference solution, ensemble.cu included whole.)
#include "grader/broken/tricks.h"
#include "row_kernels.h"
#define hermite reference_hermite
#include "solutions/08-row-kernels/row_kernels.cu"
#undef hermite

template <typename Real>
void hermite(Target target, const Real* x, Real* out, int rows, int cols, Layout layout, cudaStream_t stream) {
  if (broken::same_as_last_call(x, out, rows, cols, layout)) return;
  reference_hermite(target, x, out, rows, cols, layout, stream);
}

template void hermite<float>(Target, const float*, float*, int, int, Layout, cudaStream_t);
template void hermite<double>(Target, const double*, double*, int, int, Layout, cudaStream_t);

#include "solutions/08-row-kernels/ensemble.cu"
