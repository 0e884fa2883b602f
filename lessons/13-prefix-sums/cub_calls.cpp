// Lesson 13, step 4: CUB's scan and compaction, the yardsticks of steps 2 and 3. Read README.md
// first: each TODO(step 4) below is "Step 4" there. A C++ file, not CUDA: the CUB calls themselves
// are given (cub_library.h), compiled once, so saving this file compiles no CUB.
#include "scan.h"

#include <algorithm>
#include <cstddef>

#include "cub_library.h"
#include "stepwise/arguments.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

// ---- Step 4: CUB -------------------------------------------------------------------------------
std::size_t cub_temp_bytes(int n) {
  stepwise::require_at_least(n, 0, "n", "cub_temp_bytes");
  // TODO(step 4): ask each of the four given calls how many bytes it needs for n elements (a first
  // call with temp = nullptr fills in the size: cub_inclusive_sum and cub_select_greater, for int
  // and for float, their other pointers null too; inside CUDA_CHECK) and return the largest (at
  // least 1). Delete the line below.
  STEPWISE_TODO(4);
}

namespace {
template <typename T>
void cub_scan(const T* in, T* out, int n, void* temp, std::size_t temp_bytes, cudaStream_t stream) {
  stepwise::require_at_least(n, 0, "n", "scan_cub");
  // TODO(step 4): return when n is 0; cub_inclusive_sum(temp, bytes, in, out, n, stream) inside
  // CUDA_CHECK (bytes: a copy of temp_bytes, which CUB may change). Delete the line below.
  STEPWISE_TODO(4);
}

template <typename T>
void cub_compact(const T* in, T* out, int* count, int n, T threshold, void* temp, std::size_t temp_bytes,
                 cudaStream_t stream) {
  stepwise::require_at_least(n, 0, "n", "compact_cub");
  // TODO(step 4): for n == 0 set *count to 0 on `stream`; otherwise cub_select_greater(temp, bytes,
  // in, out, count, n, threshold, stream) inside CUDA_CHECK. Delete the line below.
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
