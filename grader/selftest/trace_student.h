#pragma once
// A pretend student's code for the trace self-tests (trace_test.cu): one honest call and one of
// each trick the trace rules must catch. Built as the "student's files" of grader-selftest, so
// the trace tells its kernels from the grader's and from the libraries'.
#include <cuda_runtime.h>

namespace pretend {
void scale(float* x, int n, cudaStream_t stream);                 // honest and asynchronous
void scale_on_legacy_stream(float* x, int n, cudaStream_t stream);  // ignores the stream
void scale_on_own_stream(float* x, int n, cudaStream_t stream);     // a stream of its own
void scale_and_wait(float* x, int n, cudaStream_t stream);          // synchronises
void scale_left_running(float* x, int n);                           // returns before the work ends
void scale_joined_back(float* x, int n, cudaStream_t stream);       // own stream, joined to the caller's
void scale_on_host(float* x, int n);                                // computes on the host
void scale_staged_in_shared(float* x, int n);                       // a kernel with shared memory
void sum_with_cub(const float* x, float* sum, int n);               // CUB's kernels, instantiated here
void square_with_cublas(const float* a, float* c, int n);           // cuBLAS's kernels
}  // namespace pretend
