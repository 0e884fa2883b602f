#pragma once
// Lesson 07: many threads adding into one value (seed 003). First the seed's smoothing stencil
// done right, one thread per output; then the sum of a whole array three ways: atomics, a tree
// in shared memory, warp shuffles.
//
// All pointers are device pointers (from cudaMalloc). Each function launches its work on the
// default stream and returns without waiting for the GPU; CUDA failures throw
// stepwise::CudaError, bad arguments std::invalid_argument (before anything is launched).

// Step 1: the seed's smoothing stencil, one thread per output. With half-width s >= 1, z holds
// n + 2s values (the signal with s extra values at each end, the seed's zwrap) and a holds the
// 2s + 1 weights; for every i in [0, n)
//   out[i] = a[0] * z[i + 2s] / 2  +  sum over k = 1 .. 2s-1 of a[k] * z[i + 2s - k]
//            +  a[2s] * z[i] / 2
// (the seed's loop: the two end weights count half). n may be 0 (nothing is launched).
void smooth(const float* z, const float* a, float* out, int n, int s);

// Steps 2-4: *sum = x[0] + x[1] + ... + x[n-1], one float on the device (0 when n == 0). The
// functions may add in any order, so their results may differ from a sequential sum, and from
// each other, in the last bits (README: "Why the answers differ in the last bits").

// Step 2: every thread adds its element into *sum with atomicAdd. Right, and slow: every
// addition waits its turn at the same address.
void sum_atomic(const float* x, int n, float* sum);

// Step 3: a tree in shared memory: each block adds its elements pairwise, halving the number
// of values each step, then adds its one partial sum into *sum.
void sum_tree(const float* x, int n, float* sum);

// Step 4: a grid-stride loop in which each thread adds many elements in registers, then warp
// shuffles (__shfl_down_sync) for the last 32 values of each warp, then one atomicAdd per block.
void sum_shuffle(const float* x, int n, float* sum);
