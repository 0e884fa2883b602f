#pragma once
// Given, not an exercise: times the parts of one version with CUDA events, as lesson 02 step 3
// did by hand, and copies that note themselves. Queue a part of the work, then say which part
// it was:
//
//   PartTimer timer;                                       // the first mark
//   CUDA_CHECK(cudaMemcpy(d_lat, lat, bytes, cudaMemcpyHostToDevice));
//   timer.done(Part::copy_in);                             // a mark after the copy
//   ...
//   return timer.timings();                                // waits for the GPU to reach the last mark
//
// Each part is the work queued between the previous mark and its own.
#include <cstddef>
#include <deque>
#include <vector>

#include "gpu_mesh.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"

enum class Part { copy_in, kernel, copy_out };

class PartTimer {
 public:
  PartTimer() { marks_.emplace_back().record(); }

  void done(Part part) {
    parts_.push_back(part);
    marks_.emplace_back().record();
  }

  MeshTimings timings() const {
    MeshTimings timings;
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      const float ms = stepwise::elapsed_ms(marks_[i], marks_[i + 1]);
      switch (parts_[i]) {
        case Part::copy_in: timings.copy_in_ms.push_back(ms); break;
        case Part::kernel: timings.kernel_ms += ms; break;
        case Part::copy_out: timings.copy_out_ms += ms; break;
      }
    }
    return timings;
  }

 private:
  std::deque<stepwise::GpuEvent> marks_;  // a deque: events cannot move, and it never moves them
  std::vector<Part> parts_;
};

// Copies n = d_values.size() doubles from the host array `values` to the GPU, then marks a
// copy_in. Allocate device memory before the timer starts: cudaMalloc takes time of its own.
inline void timed_copy_in(stepwise::DeviceBuffer<double>& d_values, const double* values, PartTimer& timer) {
  CUDA_CHECK(cudaMemcpy(d_values.data(), values, d_values.bytes(), cudaMemcpyHostToDevice));
  timer.done(Part::copy_in);
}

// Copies the distances back into the host array `out`, then marks the copy_out.
inline void timed_copy_out(const stepwise::DeviceBuffer<double>& d_out, double* out, PartTimer& timer) {
  CUDA_CHECK(cudaMemcpy(out, d_out.data(), d_out.bytes(), cudaMemcpyDeviceToHost));
  timer.done(Part::copy_out);
}
