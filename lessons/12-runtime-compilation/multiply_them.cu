// Lesson 12, step 2: the seed's multiply_them, compiled at run time. Read README.md first.
#include "multiply_them.h"

#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

// TODO(step 2): this is the seed's kernel as PyCUDA compiled it. Make it right for any n: add an
// `int n` parameter after b, make a and b `const float*`, compute the global index from
// blockIdx.x, blockDim.x and threadIdx.x, and write only when i < n. Keep extern "C".
const char* const kMultiplyThemSource = R"(
__global__ void multiply_them(float* dest, float* a, float* b) {
  const int i = threadIdx.x;
  dest[i] = a[i] * b[i];
}
)";

void multiply_them(const Kernel& kernel, float* dest, const float* a, const float* b, int n) {
  // TODO(step 2): return when n == 0. Launch the loaded kernel through cudaLaunchKernel on
  // blocks of 256 threads, enough of them for n (round up): it takes the kernel's arguments as an
  // array of pointers, one per parameter, in the kernel's order, each to a variable of exactly
  // that parameter's type (README, "Launching with an argument array"). Check the call with
  // CUDA_CHECK. Delete the line below.
  (void)kernel, (void)dest, (void)a, (void)b, (void)n;
  STEPWISE_TODO(2);
}

void multiply_them_in_out(const Kernel& kernel, float* dest, const float* a, const float* b, int n) {
  // TODO(step 2): return when n == 0. Three stepwise::DeviceBuffer<float>(n); copy a and b in
  // with cudaMemcpy (drv.In), call multiply_them on the device buffers, copy dest back (drv.Out).
  // Delete the line below.
  (void)kernel, (void)dest, (void)a, (void)b, (void)n;
  STEPWISE_TODO(2);
}
