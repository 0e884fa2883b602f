// Lesson 08: row kernels. Read README.md first: each TODO(step N) below is "Step N" there.
#include "row_kernels.h"

#include <cstddef>
#include <stdexcept>
#include <string>

#include "stepwise/check.h"
#include "stepwise/todo.h"

// ---- Step 2: the row functions ---------------------------------------------------------------

// The seed's first version: out[k] = x + x^2 + ... + x^(k+1).
template <typename Real>
struct PowerSums {
  __host__ __device__ void operator()(Real x, RowView<Real> out) const {
    // TODO(step 2): a running power (starting at x) and a running sum (starting at 0); for each
    // k < out.size add the power to the sum, store the sum in out[k], multiply the power by x.
  }
};

// The seed's "actual function": out[k] = He_k(x) / sqrt(k!), with out[0] = 1 and out[1] = x.
template <typename Real>
struct Hermite {
  __host__ __device__ void operator()(Real x, RowView<Real> out) const {
    // TODO(step 2): the recurrence normalised as it goes (README, step 2):
    //   h_k = (x * h_(k-1) - sqrt(k - 1) * h_(k-2)) / sqrt(k)
    // keeping h_(k-2), h_(k-1) and sqrt(k - 1) in variables. Not the seed's two loops: in float
    // k! overflows at k = 35.
  }
};

template <typename Real>
void power_sums(Target target, const Real* x, Real* out, int rows, int cols, Layout layout, cudaStream_t stream) {
  // TODO(step 2): apply_rows(target, PowerSums<Real>{}, x, out, rows, cols, layout, stream).
  // Delete the line below.
  STEPWISE_TODO(2);
}

template <typename Real>
void hermite(Target target, const Real* x, Real* out, int rows, int cols, Layout layout, cudaStream_t stream) {
  // TODO(step 2): throw std::invalid_argument for cols == 1 or cols < 0 (Hermite rows start
  // with He_0 and He_1), then apply_rows with Hermite<Real>{}. Delete the line below.
  STEPWISE_TODO(2);
}

// ---- Step 3: row-major output, coalesced -------------------------------------------------------

template <typename Real>
__global__ void hermite_tiled_kernel(const Real* x, Real* out, int rows, int cols) {
  // TODO(step 3): (README, step 3)
  //   extern __shared__ __align__(16) unsigned char tile_bytes[];
  //   Real* tile = reinterpret_cast<Real*>(tile_bytes);
  // 1. Thread t of the block computes row first + t (first = blockIdx.x * blockDim.x) into the
  //    tile: Hermite<Real>{}(x[r], RowView<Real>{tile + t * pitch, 1, cols}) with pitch = cols | 1,
  //    if that row exists.
  // 2. __syncthreads().
  // 3. The block's rows are min(blockDim.x, rows - first) * cols contiguous values of `out`,
  //    starting at out + first * cols: thread t copies values t, t + blockDim.x, ... of them,
  //    value i from tile[(i / cols) * pitch + i % cols].
}

template <typename Real>
void hermite_row_major_tiled(const Real* x, Real* out, int rows, int cols, cudaStream_t stream) {
  // TODO(step 3): check_matrix_size; return for rows == 0; throw std::invalid_argument for
  // cols < 2 or cols > kMaxTiledCols. Launch hermite_tiled_kernel on `stream` with blocks of 128
  // threads (halved, down to 32, while the tile of rows_per_block * (cols | 1) values is over
  // 48 KB) and enough blocks for the rows, each block given the bytes of its tile as dynamic
  // shared memory (README.md, "Hints", step 3); check the launch. Delete the line below.
  STEPWISE_TODO(3);
}

// The versions the grader and the demo call.
template void power_sums<float>(Target, const float*, float*, int, int, Layout, cudaStream_t);
template void power_sums<double>(Target, const double*, double*, int, int, Layout, cudaStream_t);
template void hermite<float>(Target, const float*, float*, int, int, Layout, cudaStream_t);
template void hermite<double>(Target, const double*, double*, int, int, Layout, cudaStream_t);
template void hermite_row_major_tiled<float>(const float*, float*, int, int, cudaStream_t);
template void hermite_row_major_tiled<double>(const double*, double*, int, int, cudaStream_t);
