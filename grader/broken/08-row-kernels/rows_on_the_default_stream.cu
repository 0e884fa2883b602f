// broken: hermite drops the stream it is given and launches on the legacy default stream (right values: the caller's copy back waits for that stream, but the work does not run where the caller queued it)
// fails: Rows.HermiteRowMajor
// expect: step 2 \(hermite, Target::gpu, row-major\): your kernel `[^`]*apply_rows_kernel[^`]*` ran on the legacy default stream, not on the stream you were given
// (The rest is the reference solution, ensemble.cu included whole.)
#include "row_kernels.h"
#define hermite reference_hermite
#include "solutions/08-row-kernels/row_kernels.cu"
#undef hermite

template <typename Real>
void hermite(Target target, const Real* x, Real* out, int rows, int cols, Layout layout, cudaStream_t) {
  reference_hermite(target, x, out, rows, cols, layout, nullptr);  // the stream given is dropped
}

template void hermite<float>(Target, const float*, float*, int, int, Layout, cudaStream_t);
template void hermite<double>(Target, const double*, double*, int, int, Layout, cudaStream_t);

#include "solutions/08-row-kernels/ensemble.cu"
