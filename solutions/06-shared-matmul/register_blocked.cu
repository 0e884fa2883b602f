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

static_assert(kBlockM * kBlockK == 4 * kThreads && kBlockN * kBlockK == 4 * kThreads,
              "each thread loads one float4 of A and one of B per tile");

struct Fragment {  // 4 floats of a tile, as loaded from global memory by one thread
  float v[4];
};

// The 4 values of A at row `row`, columns col..col+3 (zero outside the matrix). Without edges
// (every size a multiple of the tile, pointers 16-byte aligned) this is one float4 load.
template <bool kEdges>
__device__ Fragment load_a(const float* a, int m, int k, int row, int col) {
  Fragment f;
  if (!kEdges) {
    const float4 v = *reinterpret_cast<const float4*>(a + static_cast<size_t>(row) * k + col);
    f = {{v.x, v.y, v.z, v.w}};
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i)
      f.v[i] = (row < m && col + i < k) ? a[static_cast<size_t>(row) * k + col + i] : 0.0f;
  }
  return f;
}

// The 4 values of B at row `row`, columns col..col+3 (zero outside the matrix).
template <bool kEdges>
__device__ Fragment load_b(const float* b, int k, int n, int row, int col) {
  Fragment f;
  if (!kEdges) {
    const float4 v = *reinterpret_cast<const float4*>(b + static_cast<size_t>(row) * n + col);
    f = {{v.x, v.y, v.z, v.w}};
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i)
      f.v[i] = (row < k && col + i < n) ? b[static_cast<size_t>(row) * n + col + i] : 0.0f;
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

  // Which float4 of each tile this thread loads.
  const int a_row = tid / 2, a_col = (tid % 2) * 4;           // 128 rows x 2 float4s
  const int b_row = tid / 32, b_col = (tid % 32) * 4;         // 8 rows x 32 float4s

  // Which part of C this thread computes: a 16 x 16 grid of threads, each owning rows
  // ty*4..ty*4+3 and 64 + the same, and columns tx*4..tx*4+3 and 64 + the same. A warp covers 4
  // values of ty and 8 of tx, so its shared-memory reads touch 4 + 8 distinct float4s.
  const int warp = tid / 32, lane = tid % 32;
  const int tx = (warp % 2) * 8 + lane % 8;
  const int ty = (warp / 2) * 4 + lane / 8;

  auto store_tiles = [&](int buffer, const Fragment& fa, const Fragment& fb) {
#pragma unroll
    for (int i = 0; i < 4; ++i) tile_a[buffer][a_col + i][a_row] = fa.v[i];
    *reinterpret_cast<float4*>(&tile_b[buffer][b_row][b_col]) = make_float4(fb.v[0], fb.v[1], fb.v[2], fb.v[3]);
  };

  float acc[8][8] = {};
  store_tiles(0, load_a<kEdges>(a, m, k, block_row + a_row, a_col),
              load_b<kEdges>(b, k, n, b_row, block_col + b_col));
  __syncthreads();

  int buffer = 0;
  for (int t = 0; t < k; t += kBlockK) {
    const bool has_next = t + kBlockK < k;
    Fragment next_a{}, next_b{};
    if (has_next) {  // issue the next tile's global loads now; they arrive while we compute
      next_a = load_a<kEdges>(a, m, k, block_row + a_row, t + kBlockK + a_col);
      next_b = load_b<kEdges>(b, k, n, t + kBlockK + b_row, block_col + b_col);
    }
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
    if (has_next) store_tiles(buffer ^ 1, next_a, next_b);
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
