// Lesson 02, step 3: timing the copies and the kernels apart, with CUDA events. Read README.md
// ("Timing with events") first.
#include <cuda_runtime.h>

#include "elementwise_exp.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"
#include "stepwise/todo.h"

ExpTimings exp_timed(const float* x, float* out, int n) {
  // TODO(step 3): return ExpTimings{} when n == 0. Otherwise:
  //   - make three device arrays of n floats (stepwise::DeviceBuffer<float>): the input, the
  //     exp_array result, the exp_array_fast result; and five events,
  //     stepwise::GpuEvent marks[5] (common/include/stepwise/event_timer.h);
  //   - marks[0].record(); copy x to the GPU (cudaMemcpy, cudaMemcpyHostToDevice, inside
  //     CUDA_CHECK); marks[1].record(); run exp_array; marks[2].record(); run exp_array_fast;
  //     marks[3].record(); copy the exp_array result into out (cudaMemcpyDeviceToHost);
  //     marks[4].record();
  //   - fill each field of the result with stepwise::elapsed_ms(marks[k], marks[k + 1]), which
  //     waits until the GPU has reached the later mark and returns the milliseconds between.
  // Delete the line below when you are done.
  STEPWISE_TODO(3);
}
