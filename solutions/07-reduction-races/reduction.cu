// Lesson 07 reference solution: the smoothing stencil, and three sums of an array.
#include "reduction.h"

#include <algorithm>
#include <cstdint>

#include "stepwise/arguments.h"
#include "stepwise/check.h"

namespace {

constexpr int kThreadsPerBlock = 256;
constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;  // every lane of the warp takes part in a shuffle

void require_valid(int n, const char* function) { stepwise::require_at_least(n, 0, "n", function); }

// In long long: n + 255 passes INT_MAX for n near it (the largest arrays an int n allows).
int blocks_for(int n) {
  return static_cast<int>((static_cast<long long>(n) + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

int multiprocessors() {
  int device = 0, count = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

}  // namespace

// ---- Step 1: the stencil, one thread per output ------------------------------------------
// Each thread owns out[i] and keeps its running sum in a register: no other thread touches
// it, so there is nothing to race on.
__global__ void smooth_kernel(const float* z, const float* a, float* out, int n, int s) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* zi = z + i;  // this output's window: z[i] .. z[i + 2s]
  float acc = a[0] * zi[2 * s] / 2;
  for (int k = 1; k < 2 * s; ++k) acc += a[k] * zi[2 * s - k];
  acc += a[2 * s] * zi[0] / 2;
  out[i] = acc;
}

void smooth(const float* z, const float* a, float* out, int n, int s) {
  require_valid(n, "smooth");
  stepwise::require_at_least(s, 1, "the half-width s", "smooth");
  if (n == 0) return;
  smooth_kernel<<<blocks_for(n), kThreadsPerBlock>>>(z, a, out, n, s);
  CUDA_CHECK_LAUNCH();
}

// ---- Step 2: one atomicAdd per element ---------------------------------------------------
__global__ void sum_atomic_kernel(const float* x, int n, float* sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, x[i]);  // read, add, write as one step that no other thread splits
}

namespace {
// Steps 2 and 3 launch the same way: *sum set to 0 (also the sum of nothing), then one thread
// per element. The memset and the kernel run in order on the default stream.
void zero_then_launch(void (*kernel)(const float*, int, float*), const float* x, int n, float* sum) {
  CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(float)));  // all-zero bytes are 0.0f
  if (n == 0) return;
  kernel<<<blocks_for(n), kThreadsPerBlock>>>(x, n, sum);  // the tree needs a power-of-two block
  CUDA_CHECK_LAUNCH();
}
}  // namespace

void sum_atomic(const float* x, int n, float* sum) {
  require_valid(n, "sum_atomic");
  zero_then_launch(sum_atomic_kernel, x, n, sum);
}

// ---- Step 3: a tree in shared memory -------------------------------------------------------
// Each thread puts one element (0 past the end) into shared memory. Then in every step the
// first half of the active threads adds the second half's values to its own, until value 0
// holds the block's sum. The barrier after each step is what makes it right: without it a
// thread may read a value its partner has not written yet.
__global__ void sum_tree_kernel(const float* x, int n, float* sum) {
  __shared__ float values[kThreadsPerBlock];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  values[t] = i < n ? x[i] : 0.0f;  // zeros pad the last block: no odd element is left out
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) values[t] += values[t + half];
    __syncthreads();  // every addition of this step is done before the next step reads
  }
  if (t == 0) atomicAdd(sum, values[0]);  // one atomic per block, not per element
}

void sum_tree(const float* x, int n, float* sum) {
  require_valid(n, "sum_tree");
  zero_then_launch(sum_tree_kernel, x, n, sum);
}

// ---- Step 4: grid-stride loop, then warp shuffles --------------------------------------------
// The sum of the 32 values of a warp: each step a lane adds the value of the lane `offset`
// above it, read straight from that lane's register. Lane 0 ends with the sum. A warp's lanes
// run in lockstep at a shuffle, so no barrier is needed.
// [docs:warp-sum]
__device__ float warp_sum(float v) {
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}
// [docs:end]

// The sum over a block: each warp sums its lanes, lane 0 of each warp leaves its sum in shared
// memory, and the first warp sums those. Thread 0 gets the answer.
__device__ float block_sum(float v) {
  __shared__ float warp_sums[kThreadsPerBlock / kWarpSize];
  const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();  // every warp's sum is written before the first warp reads them
  v = threadIdx.x < blockDim.x / kWarpSize ? warp_sums[lane] : 0.0f;
  return warp == 0 ? warp_sum(v) : 0.0f;
}

// The speed comes from the first phase: each thread reads 16-byte float4s in a grid-stride
// loop, four at a time, into four independent running sums (a single chain of additions would
// wait for the previous addition each time), so the memory system always has many loads in
// flight, and no thread talks to another until the whole array has been read.
__global__ void sum_shuffle_kernel(const float* x, int head, const float4* x4, int n4, const float* tail,
                                   int tail_count, float* sum) {
  const int stride = blockDim.x * gridDim.x;
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  float acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
  int i = first;
  for (; i + 3 * stride < n4; i += 4 * stride) {  // four loads issued before any is needed
    const float4 p = x4[i], q = x4[i + stride], r = x4[i + 2 * stride], w = x4[i + 3 * stride];
    acc0 += (p.x + q.x) + (r.x + w.x);
    acc1 += (p.y + q.y) + (r.y + w.y);
    acc2 += (p.z + q.z) + (r.z + w.z);
    acc3 += (p.w + q.w) + (r.w + w.w);
  }
  for (; i < n4; i += stride) {  // the last rounds of the loop
    const float4 p = x4[i];
    acc0 += p.x;
    acc1 += p.y;
    acc2 += p.z;
    acc3 += p.w;
  }
  if (first < head) acc0 += x[first];           // the floats before the first 16-byte boundary
  if (first < tail_count) acc1 += tail[first];  // the floats after the last whole float4
  const float total = block_sum((acc0 + acc1) + (acc2 + acc3));
  if (threadIdx.x == 0) atomicAdd(sum, total);
}

void sum_shuffle(const float* x, int n, float* sum) {
  require_valid(n, "sum_shuffle");
  CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(float)));
  if (n == 0) return;
  // float4 loads need 16-byte alignment: the floats before the first boundary are added one by one.
  const int misaligned = static_cast<int>((reinterpret_cast<std::uintptr_t>(x) / sizeof(float)) % 4);
  const int head = std::min(n, misaligned == 0 ? 0 : 4 - misaligned);
  const int n4 = (n - head) / 4;
  const float* tail = x + head + 4 * n4;
  const int tail_count = n - head - 4 * n4;
  // As many blocks as the GPU holds at once: enough loads in flight to keep memory busy, and
  // no more, so that each thread sums many elements and the atomics at the end are few. Looked
  // up on the first call only: the answer does not change while the program runs.
  static const int resident_blocks = [] {
    int per_multiprocessor = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, sum_shuffle_kernel,
                                                             kThreadsPerBlock, 0));
    return per_multiprocessor * multiprocessors();
  }();
  const int blocks = std::min(std::max(1, blocks_for(n4)), resident_blocks);
  sum_shuffle_kernel<<<blocks, kThreadsPerBlock>>>(x, head, reinterpret_cast<const float4*>(x + head), n4, tail,
                                                   tail_count, sum);
  CUDA_CHECK_LAUNCH();
}
