// Lesson 13 reference solution, step 4: CUB's scan and compaction (a file of its own: CUB's
// templates take seconds to compile).
#include "scan.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "arguments.h"
#include "stepwise/check.h"

// ---- Step 4: CUB -------------------------------------------------------------------------------
namespace {
template <typename T>
struct GreaterThan {
  T threshold;
  __host__ __device__ bool operator()(const T& x) const { return x > threshold; }
};

template <typename T>
std::size_t scan_bytes(int n) {
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), n));
  return bytes;
}

template <typename T>
std::size_t select_bytes(int n) {
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
                                   static_cast<int*>(nullptr), n, GreaterThan<T>{T(0)}));
  return bytes;
}

void require_temp(std::size_t needed, std::size_t given, const char* function) {
  if (given < needed)
    throw std::invalid_argument(std::string(function) + ": temp holds " + std::to_string(given) + " bytes, CUB needs " +
                                std::to_string(needed) + " (allocate cub_temp_bytes(n))");
}

template <typename T>
void cub_scan(const T* in, T* out, int n, void* temp, std::size_t temp_bytes, cudaStream_t stream) {
  require_valid(n, "n", "scan_cub");
  if (n == 0) return;
  std::size_t bytes = scan_bytes<T>(n);
  require_temp(bytes, temp_bytes, "scan_cub");
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, stream));
}

template <typename T>
void cub_compact(const T* in, T* out, int* count, int n, T threshold, void* temp, std::size_t temp_bytes,
                 cudaStream_t stream) {
  require_valid(n, "n", "compact_cub");
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int), stream));
    return;
  }
  std::size_t bytes = select_bytes<T>(n);
  require_temp(bytes, temp_bytes, "compact_cub");
  CUDA_CHECK(cub::DeviceSelect::If(temp, bytes, in, out, count, n, GreaterThan<T>{threshold}, stream));
}
}  // namespace

std::size_t cub_temp_bytes(int n) {
  require_valid(n, "n", "cub_temp_bytes");
  return std::max({scan_bytes<int>(n), scan_bytes<float>(n), select_bytes<int>(n), select_bytes<float>(n),
                   std::size_t{1}});
}

void scan_cub(const int* in, int* out, int n, void* temp, std::size_t temp_bytes, cudaStream_t stream) {
  cub_scan(in, out, n, temp, temp_bytes, stream);
}
void scan_cub(const float* in, float* out, int n, void* temp, std::size_t temp_bytes, cudaStream_t stream) {
  cub_scan(in, out, n, temp, temp_bytes, stream);
}
void compact_cub(const int* in, int* out, int* count, int n, int threshold, void* temp, std::size_t temp_bytes,
                 cudaStream_t stream) {
  cub_compact(in, out, count, n, threshold, temp, temp_bytes, stream);
}
void compact_cub(const float* in, float* out, int* count, int n, float threshold, void* temp, std::size_t temp_bytes,
                 cudaStream_t stream) {
  cub_compact(in, out, count, n, threshold, temp, temp_bytes, stream);
}
