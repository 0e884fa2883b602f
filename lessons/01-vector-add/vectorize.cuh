#pragma once
// Lesson 01, step 3: vectorize(), the C++ cousin of Numba's @vectorize(target=...). It applies
// any elementwise function `op(a, b)` to whole arrays, on the CPU or on the GPU:
//
//   struct Add { __host__ __device__ float operator()(float a, float b) const { return a + b; } };
//   vectorize(Target::cpu, Add{}, a, b, out, n);        // host pointers
//   vectorize(Target::gpu, Add{}, d_a, d_b, d_out, n);  // device pointers, asynchronous
//
// It is a template, so it lives in a header: the compiler makes one kernel per `op` type.
#include "stepwise/check.h"
#include "stepwise/todo.h"

enum class Target { cpu, gpu };

template <typename T, typename Op>
__global__ void vectorize_kernel(Op op, const T* a, const T* b, T* out, int n) {
  // TODO(step 3): a grid-stride loop, as in step 2, writing op(a[i], b[i]) to out[i].
}

template <typename T, typename Op>
void vectorize(Target target, Op op, const T* a, const T* b, T* out, int n) {
  // TODO(step 3): for Target::cpu, a plain loop over the host arrays. For Target::gpu, launch
  // vectorize_kernel<T, Op> (skip n == 0) and check the launch. Delete the line below.
  STEPWISE_TODO(3);
}
