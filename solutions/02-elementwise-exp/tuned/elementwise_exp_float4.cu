// Lesson 02, the tuned version (README: "The tuned version"). A drop-in for the reference
// solution ../elementwise_exp.cu, graded as track "tuned" (bin/lessonNN-tests-tuned with this file
// in place of elementwise_exp.cu: `build/bin/stepwise grade 02 --track tuned`). Beyond the plain
// solution:
// - One kernel template serves both exponentials; the exponential is a small functor.
// - A grid-stride loop loads and stores float4 (16 bytes, four floats) per access when x and out
//   are both 16-byte aligned: a quarter of the memory requests for the same bytes. The last
//   n % 4 elements, or all of them when a pointer is not aligned, go to the scalar kernel.
// - The grid is sized by asking the runtime how many blocks of the kernel fit on a
//   multiprocessor (cudaOccupancyMaxActiveBlocksPerMultiprocessor), so each thread handles
//   several elements (stepwise::blocks_to_fill_gpu).
// Its figures on an H100, beside the plain solution's, are in the README ("On an H100"), from the
// course's one run of them.
#include "elementwise_exp.h"

#include <cstdint>

#include "stepwise/check.h"
#include "stepwise/occupancy.h"

// The two exponentials the lesson compares.
struct AccurateExp {  // CUDA's expf: at most 2 ulp from the correctly rounded result
  __device__ float operator()(float x) const { return expf(x); }
};
struct FastExp {  // the intrinsic: 2^(x * log2(e)) on the special function unit, less accurate
  __device__ float operator()(float x) const { return __expf(x); }
};

// A grid-stride loop, one float at a time (the tail, or arrays that are not 16-byte aligned).
template <typename Exp>
__global__ void exp_grid_stride_kernel(Exp exp, const float* x, float* out, int n) {
  // 64 bits: near n = INT_MAX a thread's last step, i + stride, passes INT_MAX (an int wraps).
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += stride)
    out[i] = exp(x[i]);
}

// The same loop over float4: one 16-byte load and one 16-byte store move four floats, so the
// memory system sees a quarter of the requests. exp costs a handful of instructions per
// element, far less than moving its 8 bytes, so this kernel runs at the speed of memory. An int
// index is safe here: n4 is at most INT_MAX / 4, so i + stride stays far below INT_MAX.
template <typename Exp>
__global__ void exp_grid_stride_float4_kernel(Exp exp, const float4* x, float4* out, int n4) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
    const float4 v = x[i];
    out[i] = make_float4(exp(v.x), exp(v.y), exp(v.z), exp(v.w));
  }
}

namespace {

constexpr int kThreadsPerBlock = 256;

// Rounded up, for count >= 1; not (count + 255) / 256, which overflows int past INT_MAX - 255.
int blocks_for(int count) { return (count - 1) / kThreadsPerBlock + 1; }

bool aligned_to_16_bytes(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// float4 loads need 16-byte aligned addresses: cudaMalloc gives that, a pointer into the middle
// of an array may not. Then, and for the last n % 4 elements, one float at a time.
template <typename Exp>
void launch_exp(Exp exp, const float* x, float* out, int n) {
  if (n == 0) return;  // a grid of zero blocks is an invalid launch
  int done = 0;        // elements handled by the float4 kernel
  if (n >= 4 && aligned_to_16_bytes(x) && aligned_to_16_bytes(out)) {
    const int n4 = n / 4;
    const int blocks = stepwise::blocks_to_fill_gpu(exp_grid_stride_float4_kernel<Exp>, kThreadsPerBlock,
                                                    blocks_for(n4));
    exp_grid_stride_float4_kernel<<<blocks, kThreadsPerBlock>>>(
        exp, reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(out), n4);
    CUDA_CHECK_LAUNCH();
    done = 4 * n4;
  }
  if (done < n) {
    const int rest = n - done;
    const int blocks = stepwise::blocks_to_fill_gpu(exp_grid_stride_kernel<Exp>, kThreadsPerBlock, blocks_for(rest));
    exp_grid_stride_kernel<<<blocks, kThreadsPerBlock>>>(exp, x + done, out + done, rest);
    CUDA_CHECK_LAUNCH();
  }
}

}  // namespace

// Step 1: the accurate exponential.
void exp_array(const float* x, float* out, int n) { launch_exp(AccurateExp{}, x, out, n); }

// Step 2: the fast intrinsic, in the same kernels.
void exp_array_fast(const float* x, float* out, int n) { launch_exp(FastExp{}, x, out, n); }
