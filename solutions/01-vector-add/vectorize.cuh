#pragma once
// Lesson 01 reference solution, step 3: vectorize(), the C++ cousin of Numba's
// @vectorize(target=...). It applies any elementwise function `op(a, b)` to whole arrays, on
// the CPU (host pointers) or on the GPU (device pointers, asynchronous).
#include "stepwise/check.h"

enum class Target { cpu, gpu };

template <typename T, typename Op>
__global__ void vectorize_kernel(Op op, const T* a, const T* b, T* out, int n) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = op(a[i], b[i]);
}

template <typename T, typename Op>
void vectorize(Target target, Op op, const T* a, const T* b, T* out, int n) {
  if (target == Target::cpu) {
    for (int i = 0; i < n; ++i) out[i] = op(a[i], b[i]);
    return;
  }
  if (n == 0) return;
  constexpr int kThreadsPerBlock = 256;
  const int blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  vectorize_kernel<T, Op><<<blocks, kThreadsPerBlock>>>(op, a, b, out, n);
  CUDA_CHECK_LAUNCH();
}
