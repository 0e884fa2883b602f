// Lesson 02, step 3: timing the copies and the kernels apart, with CUDA events. Read README.md
// ("Timing with events") first.
#include <cuda_runtime.h>

#include "elementwise_exp.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

// One CUDA event, destroyed when it goes out of scope. Use .get() where CUDA wants a
// cudaEvent_t: cudaEventRecord(event.get()), cudaEventElapsedTime(&ms, a.get(), b.get()).
class GpuEvent {
 public:
  GpuEvent() { CUDA_CHECK(cudaEventCreate(&event_)); }
  ~GpuEvent() { cudaEventDestroy(event_); }
  GpuEvent(const GpuEvent&) = delete;
  GpuEvent& operator=(const GpuEvent&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

ExpTimings exp_timed(const float* x, float* out, int n) {
  // TODO(step 3): return ExpTimings{} when n == 0. Otherwise:
  //   - make three device arrays of n floats (stepwise::DeviceBuffer<float>): the input, the
  //     exp_array result, the exp_array_fast result; and five GpuEvents, marks[0] to marks[4];
  //   - record marks[0]; copy x to the GPU (cudaMemcpy, cudaMemcpyHostToDevice); record
  //     marks[1]; run exp_array; record marks[2]; run exp_array_fast; record marks[3]; copy the
  //     exp_array result into out (cudaMemcpyDeviceToHost); record marks[4]. Record on the
  //     default stream: cudaEventRecord(marks[k].get()). Check every call with CUDA_CHECK;
  //   - wait for the last event (cudaEventSynchronize), then fill each field of the result
  //     with cudaEventElapsedTime between the two marks around its part.
  // Delete the line below when you are done.
  STEPWISE_TODO(3);
}
