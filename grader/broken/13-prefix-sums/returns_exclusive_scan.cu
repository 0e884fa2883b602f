// broken: the single-pass scan writes the exclusive scan (each element's own value left out) where the API promises the inclusive one.
// fails: WholeScan.SinglePassInt
// expect: every wrong value is the EXCLUSIVE scan
// (The rest is the reference solution.)
#include "scan.h"
#define scan_single_pass reference_scan_single_pass
#include "solutions/13-prefix-sums/scan.cu"
#undef scan_single_pass

template <typename T>
__global__ void __launch_bounds__(kTileThreads) exclusive_kernel(const T* in, T* out, int n, bool vectors,
                                                                 unsigned* counter, unsigned long long* statuses) {
  __shared__ T warp_totals[kTileWarps];
  __shared__ T shared_prefix;
  __shared__ int shared_tile;
  const int tile = take_tile(counter, &shared_tile);
  const long long start = static_cast<long long>(tile) * kTile;
  T x[kPieces][4], v[kPieces][4];
  load_tile(in, start, n, vectors, x);
  for (int j = 0; j < kPieces; ++j)
    for (int k = 0; k < 4; ++k) v[j][k] = x[j][k];
  const T total = scan_tile(v, warp_totals);
  const T prefix = tile_prefix(statuses, tile, total, &shared_prefix);
  for (int j = 0; j < kPieces; ++j)
    for (int k = 0; k < 4; ++k) v[j][k] = prefix + (v[j][k] - x[j][k]);  // x[i] left out
  store_tile(out, start, n, vectors, v);
}

template <typename T>
void exclusive_single_pass(const T* in, T* out, int n, cudaStream_t stream) {
  require_valid(n, "n", "scan_single_pass");
  if (n == 0) return;
  const int tiles = tiles_for(n);
  Scratch scratch(look_back_bytes(tiles), stream);
  CUDA_CHECK(cudaMemsetAsync(scratch.at<void>(0), 0, look_back_bytes(tiles), stream));
  exclusive_kernel<T><<<tiles, kTileThreads, 0, stream>>>(in, out, n, aligned16(in) && aligned16(out),
                                                          scratch.at<unsigned>(0),
                                                          scratch.at<unsigned long long>(kCounterBytes));
  CUDA_CHECK_LAUNCH();
}

void scan_single_pass(const int* in, int* out, int n, cudaStream_t stream) { exclusive_single_pass(in, out, n, stream); }
void scan_single_pass(const float* in, float* out, int n, cudaStream_t stream) {
  exclusive_single_pass(in, out, n, stream);
}
