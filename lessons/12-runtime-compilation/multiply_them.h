#pragma once
// Lesson 12, step 2: the seed's multiply_them, compiled at run time and launched for any n.
#include "runtime_compilation.h"

// Step 2: CUDA C++ source of the kernel
//   extern "C" __global__ void multiply_them(float* dest, const float* a, const float* b, int n)
// which sets dest[i] = a[i] * b[i] for every i in [0, n), one thread per element.
extern const char* const kMultiplyThemSource;

// Step 2: launches `kernel` (multiply_them compiled from kMultiplyThemSource) on device arrays,
// with a grid large enough for n, on the default stream; returns without waiting. n == 0
// launches nothing.
void multiply_them(const Kernel& kernel, float* dest, const float* a, const float* b, int n);

// Step 2: the same on host arrays, as PyCUDA's multiply_them(drv.Out(dest), drv.In(a), drv.In(b))
// does: copies a and b to the GPU, launches, copies dest back, and returns when dest is ready.
void multiply_them_in_out(const Kernel& kernel, float* dest, const float* a, const float* b, int n);
