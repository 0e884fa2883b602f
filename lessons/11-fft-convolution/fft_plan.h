#pragma once
// Given, not an exercise: a cuFFT plan that is destroyed when it goes out of scope, and
// CUFFT_CHECK, which turns a failed cuFFT call into an exception naming the call.
//
//   FftPlan forward(rows, columns, CUFFT_R2C);   // plans a 2-D real-to-complex transform
//   CUFFT_CHECK(cufftExecR2C(forward.get(), in, out));
#include <cufft.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace fft_detail {
inline const char* cufft_result_name(cufftResult code) {
  switch (code) {
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN (no plan made, or destroyed)";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED (out of GPU memory)";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE (a null pointer or a bad argument)";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED (the transform could not run on the GPU)";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED (cuFFT could not initialise)";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE (a size cuFFT does not support)";
    default: return "a cuFFT error";
  }
}

[[noreturn]] inline void throw_cufft_error(cufftResult code, const char* call, const char* file, int line) {
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                           cufft_result_name(code) + ", cufftResult " + std::to_string(static_cast<int>(code)));
}
}  // namespace fft_detail

#define CUFFT_CHECK(call)                                                            \
  do {                                                                               \
    const cufftResult fft_err_ = (call);                                             \
    if (fft_err_ != CUFFT_SUCCESS) fft_detail::throw_cufft_error(fft_err_, #call, __FILE__, __LINE__); \
  } while (0)

// A 2-D plan for arrays of `rows` x `columns` values, row-major (the last index the fastest, as
// in C and NumPy): cufftPlan2d takes the slow dimension first. Making a plan is the slow part of
// cuFFT (it chooses an algorithm, may compile kernels, allocates a work area): make it once.
class FftPlan {
 public:
  FftPlan() = default;  // no plan yet
  FftPlan(int rows, int columns, cufftType type) { CUFFT_CHECK(cufftPlan2d(&plan_, rows, columns, type)); made_ = true; }
  ~FftPlan() {
    if (made_) cufftDestroy(plan_);
  }
  FftPlan(FftPlan&& other) noexcept
      : plan_(other.plan_), made_(std::exchange(other.made_, false)), stream_(other.stream_) {}
  FftPlan& operator=(FftPlan&& other) noexcept {
    std::swap(plan_, other.plan_);
    std::swap(made_, other.made_);
    std::swap(stream_, other.stream_);
    return *this;
  }
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;

  cufftHandle get() const { return plan_; }
  // The plan's transforms run on `stream` from now on (cufftSetStream, which costs microseconds
  // of host time: called only when the stream changes).
  void set_stream(cudaStream_t stream) {
    if (stream == stream_) return;
    CUFFT_CHECK(cufftSetStream(plan_, stream));
    stream_ = stream;
  }

 private:
  cufftHandle plan_ = 0;
  bool made_ = false;
  cudaStream_t stream_ = nullptr;  // a new plan runs on the default stream
};
