// Lesson 12 reference solution, step 2: the seed's kernel, for any n.
#include "multiply_them.h"

#include "stepwise/buffers.h"
#include "stepwise/check.h"

// The seed's kernel used threadIdx.x alone and was launched as one block of 400 threads: right
// for 400 elements, and no launch at all for 2000 (a block holds at most 1024 threads). A grid
// of blocks and a bounds check make it right for any n.
const char* const kMultiplyThemSource = R"(
extern "C" __global__ void multiply_them(float* dest, const float* a, const float* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dest[i] = a[i] * b[i];
}
)";

// [docs:launch-arguments]
void multiply_them(const Kernel& kernel, float* dest, const float* a, const float* b, int n) {
  if (n == 0) return;
  constexpr int kThreadsPerBlock = 256;
  const dim3 grid((n - 1) / kThreadsPerBlock + 1);  // rounded up; n + 255 would overflow int near INT_MAX
  // One pointer per kernel parameter, in order, each to a variable of exactly the parameter's
  // type: nothing checks these types for you.
  void* arguments[] = {&dest, &a, &b, &n};
  CUDA_CHECK(cudaLaunchKernel(kernel.handle(), grid, dim3(kThreadsPerBlock), arguments));
}
// [docs:end]

// drv.In copies an array to the GPU before the launch, drv.Out copies one back after it.
void multiply_them_in_out(const Kernel& kernel, float* dest, const float* a, const float* b, int n) {
  if (n == 0) return;
  stepwise::DeviceBuffer<float> d_dest(n), d_a(n), d_b(n);
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  CUDA_CHECK(cudaMemcpy(d_a.data(), a, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b.data(), b, bytes, cudaMemcpyHostToDevice));
  multiply_them(kernel, d_dest.data(), d_a.data(), d_b.data(), n);
  CUDA_CHECK(cudaMemcpy(dest, d_dest.data(), bytes, cudaMemcpyDeviceToHost));
}
