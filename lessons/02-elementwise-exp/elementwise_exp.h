#pragma once
// Lesson 02: the exponential of every element of an array, accurate (expf) or fast (__expf),
// and timing the GPU work apart from the copies to and from it.
//
// exp_array and exp_array_fast take device pointers (from cudaMalloc), launch their kernel on
// the default stream and return without waiting for the GPU; a launch that cannot start throws
// stepwise::CudaError. n may be 0 (then nothing is launched).

// Step 1: out[i] = expf(x[i]) for every i in [0, n): CUDA's accurate exponential, at most
// 2 ulp from the correctly rounded result.
void exp_array(const float* x, float* out, int n);

// Step 2: out[i] = __expf(x[i]): the hardware's fast approximation, at most
// 2 + floor(1.173 * |x|) ulp from the correctly rounded result.
void exp_array_fast(const float* x, float* out, int n);

// What exp_timed measured: GPU time in milliseconds, from CUDA events.
struct ExpTimings {
  float copy_in_ms = 0;      // x from the host to the GPU
  float kernel_ms = 0;       // exp_array
  float fast_kernel_ms = 0;  // exp_array_fast
  float copy_out_ms = 0;     // the exp_array result from the GPU to the host
};

// Step 3: host arrays in and out. Copies x (n floats) to the GPU, runs exp_array and then
// exp_array_fast on it (into two device arrays), copies the exp_array result back into out,
// and times each of those four parts on its own with CUDA events. Waits for the GPU, so out is
// ready when it returns. n == 0 returns all-zero timings.
//
// The first launch of a kernel in a program also loads the GPU code; call exp_timed once on a
// small array before the call whose times you want (the demo and the grader do).
ExpTimings exp_timed(const float* x, float* out, int n);
