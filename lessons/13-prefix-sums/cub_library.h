// Lesson 13, step 4: the four CUB calls (given, in cub_library.cu; README, "CUB as the ceiling").
// Each takes CUB's arguments in CUB's order and returns CUB's cudaError_t. With temp == nullptr a
// call only sets temp_bytes to the bytes it needs and launches nothing; with temp_bytes bytes at
// temp it runs on `stream`. CUB may change temp_bytes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

// cub::DeviceScan::InclusiveSum: out[i] = in[0] + ... + in[i], for i < n.
cudaError_t cub_inclusive_sum(void* temp, std::size_t& temp_bytes, const int* in, int* out, int n,
                              cudaStream_t stream = nullptr);
cudaError_t cub_inclusive_sum(void* temp, std::size_t& temp_bytes, const float* in, float* out, int n,
                              cudaStream_t stream = nullptr);

// cub::DeviceSelect::If with "x > threshold": the elements of in[0..n) greater than threshold to
// out, in their order, and their number to *count (one int on the device).
cudaError_t cub_select_greater(void* temp, std::size_t& temp_bytes, const int* in, int* out, int* count, int n,
                               int threshold, cudaStream_t stream = nullptr);
cudaError_t cub_select_greater(void* temp, std::size_t& temp_bytes, const float* in, float* out, int* count, int n,
                               float threshold, cudaStream_t stream = nullptr);
