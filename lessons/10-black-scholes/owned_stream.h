#pragma once
// Given, not an exercise: a CUDA stream that is destroyed when it goes out of scope, also when
// an exception leaves the function early. (Lesson 05 is about streams; here one is enough.)
#include <cuda_runtime.h>

#include "stepwise/check.h"

class OwnedStream {
 public:
  OwnedStream() { CUDA_CHECK(cudaStreamCreate(&stream_)); }
  ~OwnedStream() { cudaStreamDestroy(stream_); }
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};
