#pragma once
// Lesson 13: prefix sums (scans). Seed 004 says a running sum along a row is a job for a
// hand-written kernel; seed 000 lists "reduction and scan" among PyCUDA's tools. Here you write
// the scan: along the rows of a batch, over one whole large array, as stream compaction, and
// with CUB as the ceiling.
//
// An inclusive scan of x[0..n) writes out[i] = x[0] + x[1] + ... + x[i] (x[i] included; the
// exclusive scan, which leaves x[i] out, is NOT what these functions return).
//
// Every function comes for int and for float. All pointers are device pointers (cudaMalloc'd);
// in and out do not overlap. Each function launches its work on `stream` (nullptr: the legacy
// default stream) and returns without waiting for the GPU; it copies nothing to or from the
// host. int sums wrap around like the hardware's 32-bit addition. CUDA failures throw
// stepwise::CudaError, bad arguments std::invalid_argument (before anything is launched).
#include <cuda_runtime.h>

#include <cstddef>

// Step 1: the inclusive scan of each row of a rows x cols row-major matrix, one block per row,
// in shared memory, for any cols (a row longer than a block is scanned in pieces, carrying the
// running total from piece to piece). rows or cols may be 0 (nothing is launched).
//   scan_rows_hillis_steele: every element adds the one `offset` before it, offset = 1, 2, 4, ...
//   (n log n additions), reading one shared array and writing the other.
//   scan_rows_blelloch: the work-efficient up-sweep and down-sweep (about 2n additions).
void scan_rows_hillis_steele(const int* in, int* out, int rows, int cols, cudaStream_t stream = nullptr);
void scan_rows_hillis_steele(const float* in, float* out, int rows, int cols, cudaStream_t stream = nullptr);
void scan_rows_blelloch(const int* in, int* out, int rows, int cols, cudaStream_t stream = nullptr);
void scan_rows_blelloch(const float* in, float* out, int rows, int cols, cudaStream_t stream = nullptr);

// Step 2: the inclusive scan of one whole array of n elements (n may be 0).
//   scan_three_phase: scan each tile, scan the tiles' totals, add each tile's offset back.
//   scan_single_pass: one kernel, each tile's offset found by decoupled look-back (Merrill and
//   Garland); a tile's index comes from an atomic counter, so a block only ever waits for tiles
//   that blocks which have already started are working on.
void scan_three_phase(const int* in, int* out, int n, cudaStream_t stream = nullptr);
void scan_three_phase(const float* in, float* out, int n, cudaStream_t stream = nullptr);
void scan_single_pass(const int* in, int* out, int n, cudaStream_t stream = nullptr);
void scan_single_pass(const float* in, float* out, int n, cudaStream_t stream = nullptr);

// Step 3: stream compaction. Copies the elements of in[0..n) greater than `threshold` to out, in
// their input order, and sets *count (one int on the device) to how many there are. Nothing at or
// past out[*count] is written.
void compact_greater(const int* in, int* out, int* count, int n, int threshold, cudaStream_t stream = nullptr);
void compact_greater(const float* in, float* out, int* count, int n, float threshold, cudaStream_t stream = nullptr);

// Step 4: the same with CUB (cub::DeviceScan::InclusiveSum, cub::DeviceSelect::If). The caller
// allocates `temp` once, outside any timing: cub_temp_bytes(n) bytes are enough for every CUB
// call below on up to n elements, int or float.
std::size_t cub_temp_bytes(int n);
void scan_cub(const int* in, int* out, int n, void* temp, std::size_t temp_bytes, cudaStream_t stream = nullptr);
void scan_cub(const float* in, float* out, int n, void* temp, std::size_t temp_bytes, cudaStream_t stream = nullptr);
void compact_cub(const int* in, int* out, int* count, int n, int threshold, void* temp, std::size_t temp_bytes,
                 cudaStream_t stream = nullptr);
void compact_cub(const float* in, float* out, int* count, int n, float threshold, void* temp, std::size_t temp_bytes,
                 cudaStream_t stream = nullptr);
