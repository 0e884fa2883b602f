// broken: the Hermite recurrence starts at k = 1 instead of 2, so it overwrites He_1 = x with x^2 - 1 and every later column is one degree too high.
// fails: Rows.HermiteRowMajor:Rows.SeedTables
// expect: values differ from the CPU reference
// (The rest is the reference solution, ensemble.cu included whole.)
#include "row_kernels.h"
#define hermite reference_hermite
#include "solutions/08-row-kernels/row_kernels.cu"
#undef hermite

template <typename Real>
struct HermiteFromOne {
  __host__ __device__ void operator()(Real x, RowView<Real> out) const {
    Real before = 1, last = x, sqrt_before = 1;
    out[0] = before;
    out[1] = last;
    for (int k = 1; k < out.size; ++k) {  // the bug: k = 2 is the first new column
      const Real sqrt_k = sqrt(static_cast<Real>(k));
      const Real next = (x * last - sqrt_before * before) / sqrt_k;
      out[k] = next;
      before = last;
      last = next;
      sqrt_before = sqrt_k;
    }
  }
};

template <typename Real>
void hermite(Target target, const Real* x, Real* out, int rows, int cols, Layout layout, cudaStream_t stream) {
  check_hermite_cols("hermite", cols);
  apply_rows(target, HermiteFromOne<Real>{}, x, out, rows, cols, layout, stream);
}

template void hermite<float>(Target, const float*, float*, int, int, Layout, cudaStream_t);
template void hermite<double>(Target, const double*, double*, int, int, Layout, cudaStream_t);

#include "solutions/08-row-kernels/ensemble.cu"
