// broken: phase 3 of the three-phase scan adds to tile t the scanned totals up to and including tile t (scanned_totals[t]) instead of those before it (scanned_totals[t - 1]): every tile after the first is off by its own total, the offset of the next block.
// fails: WholeScan.ThreePhaseInt
// expect: values differ from the CPU reference
// (The rest is the reference solution.)
#include "scan.h"
#define scan_three_phase reference_scan_three_phase
#include "solutions/13-prefix-sums/scan.cu"
#undef scan_three_phase

template <typename T>
__global__ void __launch_bounds__(kTileThreads) wrong_offsets_kernel(T* out, int n, bool vectors,
                                                                     const T* scanned_totals) {
  const int tile = blockIdx.x + 1;
  const long long start = static_cast<long long>(tile) * kTile;
  const T offset = scanned_totals[tile];  // should be scanned_totals[tile - 1]
  T v[kPieces][4];
  load_tile(out, start, n, vectors, v);
  for (int j = 0; j < kPieces; ++j)
    for (int k = 0; k < 4; ++k) v[j][k] = offset + v[j][k];
  store_tile(out, start, n, vectors, v);
}

template <typename T>
void wrong_three_phase(const T* in, T* out, int n, cudaStream_t stream) {
  require_valid(n, "n", "scan_three_phase");
  if (n == 0) return;
  const int tiles = tiles_for(n);
  const bool vectors = aligned16(in) && aligned16(out);
  Scratch scratch(2 * sizeof(T) * tiles, stream);
  T* totals = scratch.at<T>(0);
  T* scanned = scratch.at<T>(sizeof(T) * tiles);
  scan_tiles_kernel<T><<<tiles, kTileThreads, 0, stream>>>(in, out, n, vectors, totals);
  CUDA_CHECK_LAUNCH();
  if (tiles == 1) return;
  blelloch_rows_kernel<T><<<1, kRowThreads, 0, stream>>>(totals, scanned, tiles);
  CUDA_CHECK_LAUNCH();
  wrong_offsets_kernel<T><<<tiles - 1, kTileThreads, 0, stream>>>(out, n, vectors, scanned);
  CUDA_CHECK_LAUNCH();
}

void scan_three_phase(const int* in, int* out, int n, cudaStream_t stream) { wrong_three_phase(in, out, n, stream); }
void scan_three_phase(const float* in, float* out, int n, cudaStream_t stream) { wrong_three_phase(in, out, n, stream); }
