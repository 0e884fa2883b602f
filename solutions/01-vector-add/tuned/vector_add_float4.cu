// Lesson 01, the tuned version (README: "The tuned version"). A drop-in for the reference
// solution ../vector_add.cu, graded as track "tuned" (bin/lessonNN-tests-tuned with this file in
// place of vector_add.cu: `build/bin/stepwise grade 01 --track tuned`). Beyond the plain solution:
// - vector_add_grid_stride loads and stores float4 (16 bytes, four floats) per access when all
//   three pointers are 16-byte aligned: a quarter of the memory requests for the same bytes. The
//   last n % 4 elements, or all of them when a pointer is not aligned, go to the scalar kernel.
// - The grid is sized by asking the runtime how many blocks of the kernel fit on a
//   multiprocessor (cudaOccupancyMaxActiveBlocksPerMultiprocessor) instead of assuming 8.
// Its figures on an H100 are in the README ("The tuned version"), from the course's one run of them.
#include "vector_add.h"

#include <cstdint>

#include "stepwise/check.h"
#include "stepwise/occupancy.h"

namespace {
constexpr int kThreadsPerBlock = 256;
}

// Step 1: thread i of the whole grid adds element i.
__global__ void add_kernel(const float* a, const float* b, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];  // the last block reaches past n: those threads do nothing
}

void vector_add(const float* a, const float* b, float* out, int n) {
  if (n == 0) return;  // a grid of zero blocks is an invalid launch
  // Round up; not (n + 255) / 256, whose n + 255 overflows int for n past INT_MAX - 255.
  const int blocks = (n - 1) / kThreadsPerBlock + 1;
  add_kernel<<<blocks, kThreadsPerBlock>>>(a, b, out, n);
  CUDA_CHECK_LAUNCH();
}

// Step 2: a grid-stride loop. Each thread starts at its global index and jumps by the number of
// threads in the grid, so any grid size covers any n.
__global__ void add_grid_stride_kernel(const float* a, const float* b, float* out, int n) {
  // 64 bits: near n = INT_MAX a thread's last step, i + stride, passes INT_MAX (an int wraps).
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += stride)
    out[i] = a[i] + b[i];
}

// The same loop over float4: one 16-byte load moves four floats, so the memory system sees a
// quarter of the requests. The last n % 4 elements are left to the scalar kernel. An int index is
// safe here: n4 is at most INT_MAX / 4, so i + stride stays far below INT_MAX.
__global__ void add_grid_stride_float4_kernel(const float4* a, const float4* b, float4* out, int n4) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
    const float4 x = a[i], y = b[i];
    out[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

namespace {

bool aligned_to_16_bytes(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

void vector_add_grid_stride(const float* a, const float* b, float* out, int n) {
  if (n == 0) return;
  int done = 0;  // elements handled by the float4 kernel
  if (aligned_to_16_bytes(a) && aligned_to_16_bytes(b) && aligned_to_16_bytes(out) && n >= 4) {
    const int n4 = n / 4;
    const int blocks = stepwise::blocks_to_fill_gpu(add_grid_stride_float4_kernel, kThreadsPerBlock,
                                                    (n4 - 1) / kThreadsPerBlock + 1);
    add_grid_stride_float4_kernel<<<blocks, kThreadsPerBlock>>>(
        reinterpret_cast<const float4*>(a), reinterpret_cast<const float4*>(b), reinterpret_cast<float4*>(out), n4);
    CUDA_CHECK_LAUNCH();
    done = 4 * n4;
  }
  if (done < n) {  // the tail, or everything when a pointer is not 16-byte aligned
    const int rest = n - done;
    const int blocks = stepwise::blocks_to_fill_gpu(add_grid_stride_kernel, kThreadsPerBlock,
                                                    (rest - 1) / kThreadsPerBlock + 1);
    add_grid_stride_kernel<<<blocks, kThreadsPerBlock>>>(a + done, b + done, out + done, rest);
    CUDA_CHECK_LAUNCH();
  }
}
