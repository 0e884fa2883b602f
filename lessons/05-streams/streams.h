#pragma once
// Lesson 05: streams. Copies from pinned host memory, one stream of copy in, kernel and copy
// out, a guard that waits for a stream when it goes out of scope (Numba's auto_synchronize),
// and a pipeline that overlaps the copies of some chunks with the kernels of others (seed 000).
//
// Every host array these functions copy to or from must be pinned (stepwise::PinnedBuffer,
// cudaMallocHost): a copy from ordinary (pageable) memory cannot run beside anything else.
// Every function throws stepwise::CudaError when CUDA fails, and std::invalid_argument (before
// it changes anything) for n < 0, work < 0 or chunks < 1.
#include <cuda_runtime.h>

#include <cstddef>

#include "timeline.h"

// Step 1: one copy, timed two ways.
struct CopyTiming {
  float gpu_ms = 0;        // the copy itself: between CUDA events recorded around it on the stream
  double call_ms = 0;      // host clock: how long cudaMemcpyAsync took to return
};

// Queues cudaMemcpyAsync(dst, src, bytes, kind, stream) between two events, waits for the
// second, and returns both times. The copy is done when it returns.
CopyTiming timed_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream);

// Step 2: the work and one stream.
// Queues the kernel d_out[i] = transform(d_in[i], work) (transform.h) for i in [0, n) on
// `stream` and returns at once, WITHOUT waiting: the caller synchronises before reading d_out.
void transform_async(const float* d_in, float* d_out, int n, int work, cudaStream_t stream);

// out[i] = transform(in[i], work) for the n pinned host values `in`, through the device buffers
// d_in and d_out (n floats each): copy in, kernel and copy out, all queued on `stream`, then a
// wait for the stream. out holds the results when it returns.
void transform_one_stream(const float* in, float* out, float* d_in, float* d_out, int n, int work,
                          cudaStream_t stream);

// Step 3: a stream that is waited for when it goes out of scope.
//
//   {
//     StreamGuard stream;
//     CUDA_CHECK(cudaMemcpyAsync(d_in, in, bytes, cudaMemcpyHostToDevice, stream.get()));
//     ...
//   }   // here the queued work is finished
//
// The destructor waits for the stream and destroys it. It never throws (a destructor that
// throws while another exception is in flight ends the program): when the queued work failed, it
// prints one line to stderr that holds CUDA's error text (cudaGetErrorString). Call
// synchronize() to wait and get that error as a stepwise::CudaError instead.
class StreamGuard {
 public:
  StreamGuard();   // a new stream, created with cudaStreamNonBlocking
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

  cudaStream_t get() const { return stream_; }
  void synchronize();  // waits for the stream; throws stepwise::CudaError if its work failed

 private:
  cudaStream_t stream_ = nullptr;
};

// Step 4: the pipeline.
constexpr int kPipelineStreams = 3;  // enough for a copy in, a kernel and a copy out at once

// The same results as transform_one_stream, with the data split into `chunks` chunks of
// ceil(n / chunks) values (the last one shorter; with more chunks than values, the chunks past
// the end are empty). Chunk c is copied in, transformed and copied out on stream
// c % kPipelineStreams of its own StreamGuards, so the copies of one chunk overlap the kernels
// of others. out holds the results when it returns; it may be in itself (each value is copied in
// before its result is copied out). When `timeline` is not null, each stage of each chunk is
// marked on it (timeline.h); the demo draws the marks.
void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline = nullptr);
