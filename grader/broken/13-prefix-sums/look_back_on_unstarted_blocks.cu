// broken: the single-pass scan takes its tile from blockIdx.x instead of the atomic counter, numbered from the end (tile = gridDim.x - 1 - blockIdx.x): an order the GPU is free to start blocks in. With more tiles than the GPU holds at once, the blocks that start first wait for tiles whose blocks cannot start until they finish: a deadlock, which the grader's time limit turns into a failure.
// fails: WholeScan.SinglePassInt
// expect: did not finish within
// (The rest is the reference solution.)
#include "scan.h"
#define scan_single_pass reference_scan_single_pass
#include "solutions/13-prefix-sums/scan.cu"
#undef scan_single_pass

template <typename T>
__global__ void __launch_bounds__(kTileThreads) block_order_kernel(const T* in, T* out, int n, bool vectors,
                                                                   unsigned long long* statuses) {
  __shared__ T warp_totals[kTileWarps];
  __shared__ T shared_prefix;
  const int tile = static_cast<int>(gridDim.x - 1 - blockIdx.x);  // not from the counter
  const long long start = static_cast<long long>(tile) * kTile;
  T v[kPieces][4];
  load_tile(in, start, n, vectors, v);
  const T total = scan_tile(v, warp_totals);
  const T prefix = tile_prefix(statuses, tile, total, &shared_prefix);
  for (int j = 0; j < kPieces; ++j)
    for (int k = 0; k < 4; ++k) v[j][k] = prefix + v[j][k];
  store_tile(out, start, n, vectors, v);
}

template <typename T>
void block_order_single_pass(const T* in, T* out, int n, cudaStream_t stream) {
  require_valid(n, "n", "scan_single_pass");
  if (n == 0) return;
  const int tiles = tiles_for(n);
  Scratch scratch(look_back_bytes(tiles), stream);
  CUDA_CHECK(cudaMemsetAsync(scratch.at<void>(0), 0, look_back_bytes(tiles), stream));
  block_order_kernel<T><<<tiles, kTileThreads, 0, stream>>>(in, out, n, aligned16(in) && aligned16(out),
                                                            scratch.at<unsigned long long>(kCounterBytes));
  CUDA_CHECK_LAUNCH();
}

void scan_single_pass(const int* in, int* out, int n, cudaStream_t stream) { block_order_single_pass(in, out, n, stream); }
void scan_single_pass(const float* in, float* out, int n, cudaStream_t stream) {
  block_order_single_pass(in, out, n, stream);
}
