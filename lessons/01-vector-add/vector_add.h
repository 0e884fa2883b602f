#pragma once
// Lesson 01: adding two vectors on the GPU, one thread per element.
//
// All pointers are device pointers (from cudaMalloc). Each function launches its kernel on the
// default stream and returns without waiting for the GPU; a launch that cannot start throws
// stepwise::CudaError. n may be 0 (then nothing is launched).

// Step 1: out[i] = a[i] + b[i] for every i in [0, n), one thread per element.
void vector_add(const float* a, const float* b, float* out, int n);

// Step 2: the same with a grid-stride loop: a fixed-size grid that fills the GPU, each thread
// striding through the array until every element is done.
void vector_add_grid_stride(const float* a, const float* b, float* out, int n);
