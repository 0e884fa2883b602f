// broken: the seed's launch: one block of n threads, the kernel indexed by threadIdx.x alone
// fails: MultiplyThem.*
// expect: invalid configuration argument
// Right for 400 elements; for 2000 the block would need more threads than a block can hold, and
// the launch fails. (The rest is the reference solution.)
#include "multiply_them.h"
#include "stepwise/buffers.h"
#include "solutions/12-runtime-compilation/kernel_cache.cu"
#include "solutions/12-runtime-compilation/polynomial.cu"
#include "solutions/12-runtime-compilation/runtime_compilation.cu"

const char* const kMultiplyThemSource = R"(
extern "C" __global__ void multiply_them(float* dest, const float* a, const float* b, int n) {
  const int i = threadIdx.x;
  dest[i] = a[i] * b[i];
}
)";

void multiply_them(const Kernel& kernel, float* dest, const float* a, const float* b, int n) {
  if (n == 0) return;
  void* arguments[] = {&dest, &a, &b, &n};
  CUDA_CHECK(cudaLaunchKernel(kernel.handle(), dim3(1), dim3(n), arguments));  // block=(n,1,1), grid=(1,1)
}

void multiply_them_in_out(const Kernel& kernel, float* dest, const float* a, const float* b, int n) {
  if (n == 0) return;
  stepwise::DeviceBuffer<float> d_dest(n), d_a(n), d_b(n);
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  CUDA_CHECK(cudaMemcpy(d_a.data(), a, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b.data(), b, bytes, cudaMemcpyHostToDevice));
  multiply_them(kernel, d_dest.data(), d_a.data(), d_b.data(), n);
  CUDA_CHECK(cudaMemcpy(dest, d_dest.data(), bytes, cudaMemcpyDeviceToHost));
}
