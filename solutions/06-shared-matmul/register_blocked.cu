// Lesson 06, reference solution, step 4: register blocking.
//
// A block of 256 threads computes a 128 x 128 tile of C; each thread computes 8 x 8 elements of
// it in registers. Per step of k, a thread reads 8 values of A and 8 of B from shared memory and
// does 64 multiply-adds with them: 16 loads for 64 FMAs, where the tiled kernel needs 2 loads
// for every FMA. That is what lets the FMA units, not shared memory, set the speed.
#include "shared_matmul.h"

#include <cstdint>

#include "stepwise/check.h"

namespace {

constexpr int kBlockM = 128;  // rows of C per block
constexpr int kBlockN = 128;  // columns of C per block
constexpr int kBlockK = 8;    // the depth of the tiles of A and B in shared memory
constexpr int kThreads = 256;
// Shared A is stored transposed (k-major), so a thread's 4 consecutive rows are one float4; 4
// floats of padding per row keep the transposing stores free of bank conflicts.
constexpr int kPaddedM = kBlockM + 4;

// Each thread loads kLoadsA float4s of every A tile and kLoadsB of every B tile.
constexpr int kLoadsA = kBlockM * kBlockK / (4 * kThreads);
constexpr int kLoadsB = kBlockK * kBlockN / (4 * kThreads);
static_assert(kLoadsA >= 1 && kLoadsB >= 1 && kBlockK % 4 == 0, "tiles of whole float4s for every thread");

struct Fragment {  // 4 neighbouring floats of a row, as loaded from global memory
  float v[4];
};

// The 4 values of a rows x cols matrix at (row, col..col+3), zero outside it. Without edges
// (every size a multiple of the tile, pointers 16-byte aligned) this is one float4 load.
template <bool kEdges>
__device__ Fragment load4(const float* matrix, int rows, int cols, int row, int col) {
  Fragment f;
  if (!kEdges) {
    const float4 v = *reinterpret_cast<const float4*>(matrix + static_cast<size_t>(row) * cols + col);
    f = {{v.x, v.y, v.z, v.w}};
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i)
      f.v[i] = (row < rows && col + i < cols) ? matrix[static_cast<size_t>(row) * cols + col + i] : 0.0f;
  }
  return f;
}

template <bool kEdges>
__global__ void __launch_bounds__(kThreads, 2)
    register_blocked_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  // Two of each tile: while the threads compute on one, the next is loaded into the other.
  __shared__ __align__(16) float tile_a[2][kBlockK][kPaddedM];  // tile_a[.][p][i] = A(i, p)
  __shared__ __align__(16) float tile_b[2][kBlockK][kBlockN];   // tile_b[.][p][j] = B(p, j)

  const int tid = threadIdx.x;
  const int block_row = blockIdx.y * kBlockM, block_col = blockIdx.x * kBlockN;

  // Load number l of this thread: float4 number tid + l * kThreads of the tile, row by row.
  auto a_row = [&](int l) { return (tid + l * kThreads) / (kBlockK / 4); };     // 0..kBlockM-1
  auto a_col = [&](int l) { return (tid + l * kThreads) % (kBlockK / 4) * 4; };
  auto b_row = [&](int l) { return (tid + l * kThreads) / (kBlockN / 4); };     // 0..kBlockK-1
  auto b_col = [&](int l) { return (tid + l * kThreads) % (kBlockN / 4) * 4; };

  // Which part of C this thread computes: a 16 x 16 grid of threads, each owning rows
  // ty*4..ty*4+3 and 64 + the same, and columns tx*4..tx*4+3 and 64 + the same. A warp covers 4
  // values of ty and 8 of tx, so its shared-memory reads touch 4 + 8 distinct float4s.
  const int warp = tid / 32, lane = tid % 32;
  const int tx = (warp % 2) * 8 + lane % 8;
  const int ty = (warp / 2) * 4 + lane / 8;

  // The next tiles, from global memory into registers, then from registers into shared memory.
  Fragment next_a[kLoadsA], next_b[kLoadsB];
  auto load_tiles = [&](int t) {
#pragma unroll
    for (int l = 0; l < kLoadsA; ++l) next_a[l] = load4<kEdges>(a, m, k, block_row + a_row(l), t + a_col(l));
#pragma unroll
    for (int l = 0; l < kLoadsB; ++l) next_b[l] = load4<kEdges>(b, k, n, t + b_row(l), block_col + b_col(l));
  };
  auto store_tiles = [&](int buffer) {
#pragma unroll
    for (int l = 0; l < kLoadsA; ++l)
#pragma unroll
      for (int i = 0; i < 4; ++i) tile_a[buffer][a_col(l) + i][a_row(l)] = next_a[l].v[i];
#pragma unroll
    for (int l = 0; l < kLoadsB; ++l)
      *reinterpret_cast<float4*>(&tile_b[buffer][b_row(l)][b_col(l)]) =
          make_float4(next_b[l].v[0], next_b[l].v[1], next_b[l].v[2], next_b[l].v[3]);
  };

  float acc[8][8] = {};
  load_tiles(0);
  store_tiles(0);
  __syncthreads();

  int buffer = 0;
  for (int t = 0; t < k; t += kBlockK) {
    const bool has_next = t + kBlockK < k;
    if (has_next) load_tiles(t + kBlockK);  // issued now, they arrive while we compute
#pragma unroll
    for (int p = 0; p < kBlockK; ++p) {
      // Four 16-byte shared loads give this thread its 8 values of A and 8 of B for this p.
      const float4 a0 = *reinterpret_cast<const float4*>(&tile_a[buffer][p][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&tile_a[buffer][p][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&tile_b[buffer][p][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&tile_b[buffer][p][64 + tx * 4]);
      const float fa[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float fb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] += fa[i] * fb[j];
    }
    if (has_next) store_tiles(buffer ^ 1);
    // One barrier per tile is enough: it orders this tile's reads before the next iteration's
    // stores into the same buffer, and this iteration's stores before the next one's reads.
    __syncthreads();
    buffer ^= 1;
  }

#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = block_row + (i / 4) * 64 + ty * 4 + i % 4;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int col = block_col + half * 64 + tx * 4;
      const float* v = &acc[i][half * 4];
      float* out = c + static_cast<size_t>(row) * n + col;
      if (!kEdges) {
        *reinterpret_cast<float4*>(out) = make_float4(v[0], v[1], v[2], v[3]);
      } else if (row < m) {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + j < n) out[j] = v[j];
      }
    }
  }
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

void matmul_register_blocked(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  if (m == 0 || n == 0) return;
  const dim3 grid((n + kBlockN - 1) / kBlockN, (m + kBlockM - 1) / kBlockM);
  // Whole tiles and aligned rows take the fast kernel: float4 loads and stores, no bounds
  // checks. Any other shape takes the same kernel with checked scalar loads and stores.
  const bool whole_tiles = k > 0 && m % kBlockM == 0 && n % kBlockN == 0 && k % kBlockK == 0;
  if (whole_tiles && aligned16(a) && aligned16(b) && aligned16(c))
    register_blocked_kernel<false><<<grid, kThreads>>>(a, b, c, m, n, k);
  else
    register_blocked_kernel<true><<<grid, kThreads>>>(a, b, c, m, n, k);
  CUDA_CHECK_LAUNCH();
}
