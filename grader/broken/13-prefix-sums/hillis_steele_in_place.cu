// broken: Hillis-Steele without double buffering: each round adds in place, buffer[t] += buffer[t - offset], so a thread can read a value another warp has already updated in the same round. The sums are often right anyway: racecheck sees the race.
// fails: Sanitizer.Racecheck
// expect: compute-sanitizer --tool racecheck found [1-9][0-9]* error
// (The rest is the reference solution. The launchers are replaced, so that they launch this kernel.)
#include "scan.h"
#define scan_rows_hillis_steele reference_scan_rows_hillis_steele
#include "solutions/13-prefix-sums/scan.cu"
#undef scan_rows_hillis_steele

template <typename T>
__global__ void in_place_rows_kernel(const T* in, T* out, int cols) {
  __shared__ T buffer[kRowThreads];
  const int t = threadIdx.x;
  const T* row_in = in + static_cast<std::size_t>(blockIdx.x) * cols;
  T* row_out = out + static_cast<std::size_t>(blockIdx.x) * cols;
  T carry = T(0);
  for (int start = 0; start < cols; start += kRowThreads) {
    const int i = start + t;
    buffer[t] = i < cols ? row_in[i] : T(0);
    __syncthreads();
    for (int offset = 1; offset < kRowThreads; offset *= 2) {
      if (t >= offset) buffer[t] += buffer[t - offset];  // reads what another warp may have updated already
      __syncthreads();
    }
    if (i < cols) row_out[i] = carry + buffer[t];
    carry += buffer[kRowThreads - 1];
    __syncthreads();
  }
}

void scan_rows_hillis_steele(const int* in, int* out, int rows, int cols, cudaStream_t stream) {
  launch_rows(in_place_rows_kernel<int>, in, out, rows, cols, stream, "scan_rows_hillis_steele");
}
void scan_rows_hillis_steele(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch_rows(in_place_rows_kernel<float>, in, out, rows, cols, stream, "scan_rows_hillis_steele");
}
