#include "stepwise/event_timer.h"

#include "stepwise/check.h"

namespace stepwise {

EventTimer::EventTimer() {
  CUDA_CHECK(cudaEventCreate(&start_));
  CUDA_CHECK(cudaEventCreate(&stop_));
}

EventTimer::~EventTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void EventTimer::start(cudaStream_t stream) { CUDA_CHECK(cudaEventRecord(start_, stream)); }

float EventTimer::stop(cudaStream_t stream) {
  CUDA_CHECK(cudaEventRecord(stop_, stream));
  CUDA_CHECK(cudaEventSynchronize(stop_));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return ms;
}

}  // namespace stepwise
