#pragma once
// Timing GPU work with CUDA events. The GPU runs work asynchronously, so a host clock read right
// after a launch measures only the launch; events are recorded in the GPU's own stream of work.
//
//   stepwise::EventTimer timer;
//   timer.start();
//   my_kernel<<<grid, block>>>(...);
//   float ms = timer.stop();   // waits for the GPU, returns the milliseconds between the events
#include <cuda_runtime.h>

namespace stepwise {

// One CUDA event, destroyed when it goes out of scope: a mark in the GPU's queue of work. The GPU
// notes the time when it reaches the mark, so two marks time exactly the work queued between.
class GpuEvent {
 public:
  GpuEvent();
  ~GpuEvent();
  GpuEvent(const GpuEvent&) = delete;
  GpuEvent& operator=(const GpuEvent&) = delete;
  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t stream = nullptr);  // cudaEventRecord, checked

 private:
  cudaEvent_t event_ = nullptr;
};

// Milliseconds between two recorded events; waits until the GPU has reached `to`.
float elapsed_ms(const GpuEvent& from, const GpuEvent& to);

// A start mark and a stop mark.
class EventTimer {
 public:
  void start(cudaStream_t stream = nullptr);
  // Records the stop event, waits for it, and returns the time since start() in milliseconds.
  float stop(cudaStream_t stream = nullptr);

 private:
  GpuEvent start_;
  GpuEvent stop_;
};

// Runs `work` once between two events and returns its GPU time in milliseconds.
template <typename Work>
float time_gpu_ms(Work&& work, cudaStream_t stream = nullptr) {
  EventTimer timer;
  timer.start(stream);
  work();
  return timer.stop(stream);
}

}  // namespace stepwise
