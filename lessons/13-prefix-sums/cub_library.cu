// Lesson 13, step 4: the four CUB calls, given. CUB's headers take about 4 s to compile, which
// every save of a file that included them would pay: this file is compiled once (it has no twin in
// solutions/), and your cub_calls.cpp calls these.
#include "cub_library.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

namespace {
// DeviceSelect::If keeps the elements for which this is true.
template <typename T>
struct GreaterThan {
  T threshold;
  __host__ __device__ bool operator()(const T& x) const { return x > threshold; }
};
}  // namespace

// [docs:cub-library]
cudaError_t cub_inclusive_sum(void* temp, std::size_t& temp_bytes, const int* in, int* out, int n,
                              cudaStream_t stream) {
  return cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n, stream);
}
cudaError_t cub_select_greater(void* temp, std::size_t& temp_bytes, const int* in, int* out, int* count, int n,
                               int threshold, cudaStream_t stream) {
  return cub::DeviceSelect::If(temp, temp_bytes, in, out, count, n, GreaterThan<int>{threshold}, stream);
}
// [docs:end]
cudaError_t cub_inclusive_sum(void* temp, std::size_t& temp_bytes, const float* in, float* out, int n,
                              cudaStream_t stream) {
  return cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n, stream);
}
cudaError_t cub_select_greater(void* temp, std::size_t& temp_bytes, const float* in, float* out, int* count, int n,
                               float threshold, cudaStream_t stream) {
  return cub::DeviceSelect::If(temp, temp_bytes, in, out, count, n, GreaterThan<float>{threshold}, stream);
}
