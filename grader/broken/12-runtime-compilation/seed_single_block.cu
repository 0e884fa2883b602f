// broken: the seed's launch: one block of n threads, block=(n,1,1), grid=(1,1)
// fails: MultiplyThem.DeviceArraysAtEverySize
// expect: invalid (configuration )?argument
// Right for 400 elements; for 2000 the block would need more threads than a block can hold, and
// the launch fails. (The rest is the reference solution.)
#include "multiply_them.h"
#include "solutions/12-runtime-compilation/kernel_cache.cu"
#include "solutions/12-runtime-compilation/polynomial.cu"
#include "solutions/12-runtime-compilation/runtime_compilation.cu"
#define multiply_them reference_multiply_them
#include "solutions/12-runtime-compilation/multiply_them.cu"
#undef multiply_them

void multiply_them(const Kernel& kernel, float* dest, const float* a, const float* b, int n) {
  if (n == 0) return;
  void* arguments[] = {&dest, &a, &b, &n};
  CUDA_CHECK(cudaLaunchKernel(kernel.handle(), dim3(1), dim3(n), arguments));
}
