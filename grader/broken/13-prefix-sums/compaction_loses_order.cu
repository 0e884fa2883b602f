// broken: compaction hands out output slots with a counter (out[atomicAdd(count, 1)] = x): the count is right and the right elements are kept, but in the order the threads happened to reach the counter.
// fails: Compact.KeepsOrderAndCountInt
// expect: the right elements, in the wrong order
// (The rest is the reference solution.)
#include "scan.h"
#define compact_greater reference_compact_greater
#include "solutions/13-prefix-sums/scan.cu"
#undef compact_greater

template <typename T>
__global__ void slot_counter_kernel(const T* in, T* out, int* count, int n, T threshold) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(blockDim.x) * gridDim.x)
    if (in[i] > threshold) out[atomicAdd(count, 1)] = in[i];
}

template <typename T>
void slot_counter_compact(const T* in, T* out, int* count, int n, T threshold, cudaStream_t stream) {
  require_valid(n, "n", "compact_greater");
  CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int), stream));
  if (n == 0) return;
  slot_counter_kernel<T><<<std::min(tiles_for(n) * 16, 4096), 256, 0, stream>>>(in, out, count, n, threshold);
  CUDA_CHECK_LAUNCH();
}

void compact_greater(const int* in, int* out, int* count, int n, int threshold, cudaStream_t stream) {
  slot_counter_compact(in, out, count, n, threshold, stream);
}
void compact_greater(const float* in, float* out, int* count, int n, float threshold, cudaStream_t stream) {
  slot_counter_compact(in, out, count, n, threshold, stream);
}
