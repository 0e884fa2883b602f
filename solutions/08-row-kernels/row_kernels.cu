// Lesson 08 reference solution, steps 2 and 3: seed 004's row functions through apply_rows, and
// Hermite into a row-major matrix through a shared-memory tile.
#include "row_kernels.h"

#include <cstddef>
#include <stdexcept>
#include <string>

#include "stepwise/check.h"

// ---- Step 2: the row functions ---------------------------------------------------------------

// The seed's first version: out[k] = x + x^2 + ... + x^(k+1), one running power, one running sum.
// [docs:power-sums]
template <typename Real>
struct PowerSums {
  __host__ __device__ void operator()(Real x, RowView<Real> out) const {
    Real power = x, sum = 0;
    for (int k = 0; k < out.size; ++k) {
      sum += power;
      out[k] = sum;
      power *= x;
    }
  }
};
// [docs:end]

// The seed's "actual function", He_k(x) / sqrt(k!), normalised as it goes:
//   h_k = (x h_(k-1) - sqrt(k-1) h_(k-2)) / sqrt(k)
// is the seed's recurrence divided through by sqrt(k!). The seed's two loops (the recurrence,
// then the division by sqrt(k!)) need k! and He_k themselves: in float k! passes the largest
// value, 3.4e38, at k = 35 (every later column comes out 0) and He_k soon after (NaN). The
// normalised values stay near 1.
// [docs:hermite]
template <typename Real>
struct Hermite {
  __host__ __device__ void operator()(Real x, RowView<Real> out) const {
    Real before = 1, last = x, sqrt_before = 1;  // h_(k-2), h_(k-1), sqrt(k-1)
    out[0] = before;
    out[1] = last;
    for (int k = 2; k < out.size; ++k) {
      const Real sqrt_k = sqrt(static_cast<Real>(k));
      const Real next = (x * last - sqrt_before * before) / sqrt_k;
      out[k] = next;
      before = last;
      last = next;
      sqrt_before = sqrt_k;
    }
  }
};
// [docs:end]

template <typename Real>
void power_sums(Target target, const Real* x, Real* out, int rows, int cols, Layout layout, cudaStream_t stream) {
  apply_rows(target, PowerSums<Real>{}, x, out, rows, cols, layout, stream);
}

static void check_hermite_cols(const char* what, int cols) {
  if (cols == 1 || cols < 0)
    throw std::invalid_argument(std::string(what) + ": Hermite rows need cols >= 2 (He_0 and He_1), got " +
                                std::to_string(cols));
}

template <typename Real>
void hermite(Target target, const Real* x, Real* out, int rows, int cols, Layout layout, cudaStream_t stream) {
  check_hermite_cols("hermite", cols);
  apply_rows(target, Hermite<Real>{}, x, out, rows, cols, layout, stream);
}

// ---- Step 3: row-major output, coalesced -------------------------------------------------------

// Each block of R threads computes R consecutive rows into a tile in shared memory, one row per
// thread, then copies the tile to the output: the R rows are R * cols contiguous values there, so
// thread t writes values t, t + R, t + 2R, ... and a warp's store covers 32 neighbouring values.
// A tile row is `pitch` = cols rounded up to odd values long: thread t's value k is at
// t * pitch + k, and with an odd pitch the 32 threads of a warp hit 32 different banks.
// [docs:tiled-kernel]
template <typename Real>
__global__ void hermite_tiled_kernel(const Real* x, Real* out, int rows, int cols) {
  extern __shared__ __align__(16) unsigned char tile_bytes[];
  Real* tile = reinterpret_cast<Real*>(tile_bytes);
  const int pitch = cols | 1;
  const int first = blockIdx.x * blockDim.x;  // the block's first row
  const int r = first + threadIdx.x;
  if (r < rows) Hermite<Real>{}(x[r], RowView<Real>{tile + threadIdx.x * pitch, 1, cols});
  __syncthreads();  // every row of the tile is written before any thread reads another's

  const int count = min(static_cast<int>(blockDim.x), rows - first) * cols;
  Real* block_out = out + static_cast<std::size_t>(first) * cols;
  for (int i = threadIdx.x; i < count; i += blockDim.x) block_out[i] = tile[(i / cols) * pitch + i % cols];
}
// [docs:end]

template <typename Real>
void hermite_row_major_tiled(const Real* x, Real* out, int rows, int cols, cudaStream_t stream) {
  check_matrix_size("hermite_row_major_tiled", rows, cols);
  if (rows == 0) return;
  // cols == 0 too: Hermite writes h_0 and h_1 whatever the size, past a tile of 1-value rows.
  if (cols < 2 || cols > kMaxTiledCols)
    throw std::invalid_argument("hermite_row_major_tiled: cols must be from 2 to " + std::to_string(kMaxTiledCols) +
                                ", got " + std::to_string(cols));
  // 128 rows per block where the tile fits in 48 KB (shared memory any GPU gives without asking),
  // down to 32 for long double rows.
  const std::size_t row_bytes = static_cast<std::size_t>(cols | 1) * sizeof(Real);
  int rows_per_block = 128;
  while (rows_per_block > 32 && rows_per_block * row_bytes > 48 * 1024) rows_per_block /= 2;
  const int blocks = (rows - 1) / rows_per_block + 1;  // rounded up, with no int overflow near INT_MAX
  hermite_tiled_kernel<<<blocks, rows_per_block, rows_per_block * row_bytes, stream>>>(x, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

// The versions the grader and the demo call.
template void power_sums<float>(Target, const float*, float*, int, int, Layout, cudaStream_t);
template void power_sums<double>(Target, const double*, double*, int, int, Layout, cudaStream_t);
template void hermite<float>(Target, const float*, float*, int, int, Layout, cudaStream_t);
template void hermite<double>(Target, const double*, double*, int, int, Layout, cudaStream_t);
template void hermite_row_major_tiled<float>(const float*, float*, int, int, cudaStream_t);
template void hermite_row_major_tiled<double>(const double*, double*, int, int, cudaStream_t);
