#include "stepwise/event_timer.h"

#include "stepwise/check.h"

namespace stepwise {

GpuEvent::GpuEvent() { CUDA_CHECK(cudaEventCreate(&event_)); }

GpuEvent::~GpuEvent() { cudaEventDestroy(event_); }

void GpuEvent::record(cudaStream_t stream) { CUDA_CHECK(cudaEventRecord(event_, stream)); }

float elapsed_ms(const GpuEvent& from, const GpuEvent& to) {
  CUDA_CHECK(cudaEventSynchronize(to.get()));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, from.get(), to.get()));
  return ms;
}

void EventTimer::start(cudaStream_t stream) { start_.record(stream); }

float EventTimer::stop(cudaStream_t stream) {
  stop_.record(stream);
  return elapsed_ms(start_, stop_);
}

}  // namespace stepwise
