// Lesson 13 reference solution, step 4: CUB's scan and compaction, through the given CUB calls
// (cub_library.h: compiled once, so this C++ file compiles no CUB).
#include "scan.h"

#include <algorithm>
#include <cstddef>

#include "cub_library.h"
#include "stepwise/arguments.h"
#include "stepwise/check.h"

// ---- Step 4: CUB -------------------------------------------------------------------------------
namespace {
// The bytes each call needs for n elements: with temp == nullptr it only sets them.
template <typename T>
std::size_t scan_bytes(int n) {
  std::size_t bytes = 0;
  CUDA_CHECK(cub_inclusive_sum(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), n));
  return bytes;
}

template <typename T>
std::size_t select_bytes(int n) {
  std::size_t bytes = 0;
  CUDA_CHECK(cub_select_greater(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), nullptr, n,
                                T(0)));
  return bytes;
}

// A temp smaller than CUB asks for: "scan_cub: temp_bytes must be >= <needed>, got <given>".
void require_temp(std::size_t needed, std::size_t given, const char* function) {
  stepwise::require_at_least(static_cast<long long>(given), static_cast<long long>(needed), "temp_bytes", function);
}

template <typename T>
void cub_scan(const T* in, T* out, int n, void* temp, std::size_t temp_bytes, cudaStream_t stream) {
  stepwise::require_at_least(n, 0, "n", "scan_cub");
  if (n == 0) return;
  std::size_t bytes = scan_bytes<T>(n);
  require_temp(bytes, temp_bytes, "scan_cub");
  CUDA_CHECK(cub_inclusive_sum(temp, bytes, in, out, n, stream));
}

template <typename T>
void cub_compact(const T* in, T* out, int* count, int n, T threshold, void* temp, std::size_t temp_bytes,
                 cudaStream_t stream) {
  stepwise::require_at_least(n, 0, "n", "compact_cub");
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int), stream));
    return;
  }
  std::size_t bytes = select_bytes<T>(n);
  require_temp(bytes, temp_bytes, "compact_cub");
  CUDA_CHECK(cub_select_greater(temp, bytes, in, out, count, n, threshold, stream));
}
}  // namespace

std::size_t cub_temp_bytes(int n) {
  stepwise::require_at_least(n, 0, "n", "cub_temp_bytes");
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
