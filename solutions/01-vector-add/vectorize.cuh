#pragma once
// Lesson 01 reference solution, step 3: vectorize(), the C++ cousin of Numba's
// @vectorize(target=...). It applies any elementwise function `op(a, b)` to whole arrays, on
// the CPU (host pointers) or on the GPU (device pointers, asynchronous).
#include "stepwise/check.h"

enum class Target { cpu, gpu };

template <typename T, typename Op>
__global__ void vectorize_kernel(Op op, const T* a, const T* b, T* out, int n) {
  // 64 bits: near n = INT_MAX a thread's last step, i + stride, passes INT_MAX (an int wraps).
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += stride)
    out[i] = op(a[i], b[i]);
}

template <typename T, typename Op>
void vectorize(Target target, Op op, const T* a, const T* b, T* out, int n) {
  if (target == Target::cpu) {
    for (int i = 0; i < n; ++i) out[i] = op(a[i], b[i]);
    return;
  }
  if (n == 0) return;
  constexpr int kThreadsPerBlock = 256;
  // Round up; not (n + 255) / 256, whose n + 255 overflows int for n past INT_MAX - 255.
  const int blocks = (n - 1) / kThreadsPerBlock + 1;
  vectorize_kernel<T, Op><<<blocks, kThreadsPerBlock>>>(op, a, b, out, n);
  CUDA_CHECK_LAUNCH();
}
