// Lesson 13, step 4: CUB's scan and compaction, the yardsticks of steps 2 and 3. Read README.md
// first: each TODO(step 4) below is "Step 4" there. A file of its own because CUB's templates take
// seconds to compile: an edit of scan.cu does not compile them again.
#include "scan.h"

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstddef>

#include "arguments.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

// ---- Step 4: CUB -------------------------------------------------------------------------------
namespace {
template <typename T>
struct GreaterThan {
  T threshold;
  __host__ __device__ bool operator()(const T& x) const { return x > threshold; }
};
}  // namespace

std::size_t cub_temp_bytes(int n) {
  require_valid(n, "n", "cub_temp_bytes");
  // TODO(step 4): ask CUB how many bytes each call needs (a first call with temp = nullptr fills
  // in the size: cub::DeviceScan::InclusiveSum for int and float, cub::DeviceSelect::If with
  // GreaterThan<T> for int and float) and return the largest (at least 1). Delete the line below.
  STEPWISE_TODO(4);
}

namespace {
template <typename T>
void cub_scan(const T* in, T* out, int n, void* temp, std::size_t temp_bytes, cudaStream_t stream) {
  require_valid(n, "n", "scan_cub");
  // TODO(step 4): return when n is 0; cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n,
  // stream) inside CUDA_CHECK (bytes: a copy of temp_bytes, which CUB may change). Delete the line
  // below.
  STEPWISE_TODO(4);
}

template <typename T>
void cub_compact(const T* in, T* out, int* count, int n, T threshold, void* temp, std::size_t temp_bytes,
                 cudaStream_t stream) {
  require_valid(n, "n", "compact_cub");
  // TODO(step 4): for n == 0 set *count to 0 on `stream`; otherwise cub::DeviceSelect::If(temp,
  // bytes, in, out, count, n, GreaterThan<T>{threshold}, stream) inside CUDA_CHECK. Delete the
  // line below.
  STEPWISE_TODO(4);
}
}  // namespace

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
