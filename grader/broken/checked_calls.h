#pragma once
// The "work only when checked" trick, for broken submissions that skip a lesson-specific part of
// the work only on the calls whose output the grader does not check (04-gpu-mesh's
// copies_back_only_when_checked: the kernel runs, the copy back does not). Skipping the whole call
// so is played by the harness itself on every speed check (STEPWISE_TRACE_TRICK=checked-only,
// grader/trace.h). grader::gpu_median_ms times a Workload as its warm-up calls and its timed ones
// with the same buffers, checks the output of the last timed call, then makes one more call
// (traced, checked): with 2 warm-up calls and 15 timed, 18 calls in a row. A call that does its
// work only on the 1st, 2nd, 17th and 18th of each such run, and returns at once on the others,
// leaves every checked output right, while the median timed call is empty. A figure's ceiling
// (the least time the work can take on this GPU) or a check of every run's output
// (Workload::every_run_is_right) must catch it.
#include <tuple>

namespace broken {

// True for the calls the trick skips: the 3rd to `period` - 2nd of each `period` calls in a row
// made with the same `args` (a new run starts when they change, or after `period` calls). `Tag`
// keeps the counts of different functions apart. `period` is 18 for a Workload with a traced call
// and the default TimingOptions; a check with other options (warm-up, repeats) has its own.
template <int Tag, typename... Args>
bool unchecked_call(int period, Args... args) {
  static std::tuple<Args...> last;
  static int count = 0;
  const std::tuple<Args...> now(args...);
  count = count > 0 && now == last ? count + 1 : 1;
  last = now;
  const int place = (count - 1) % period + 1;
  return place >= 3 && place <= period - 2;
}

}  // namespace broken
