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

class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start(cudaStream_t stream = nullptr);
  // Records the stop event, waits for it, and returns the time since start() in milliseconds.
  float stop(cudaStream_t stream = nullptr);

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
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
