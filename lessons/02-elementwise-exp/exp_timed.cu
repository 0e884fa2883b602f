// Lesson 02, step 3: timing the copies and the kernels apart, with CUDA events. Read README.md
// ("Timing with events") first.
#include <cuda_runtime.h>

#include "elementwise_exp.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"
#include "stepwise/todo.h"

ExpTimings exp_timed(const float* x, float* out, int n) {
  // TODO(step 3): run the whole job once on the GPU: copy x there, run exp_array and
  // exp_array_fast on it, and copy exp_array's result back into out. Time each of these four
  // parts on its own with CUDA events, so that no part's time includes another's, and return the
  // four times in ExpTimings. n == 0 does nothing and returns ExpTimings{}. stepwise::GpuEvent and
  // stepwise::elapsed_ms (common/include/stepwise/event_timer.h) make the event calls for you.
  // Delete the line below when you are done.
  STEPWISE_TODO(3);
}
