#pragma once
// Speed checks. Every figure is a ratio to something measured in the same run on the same
// machine: the device's copy bandwidth, the single-thread CPU reference, a baseline kernel the
// grader ships, or a library. Minimums live in grader/requirements.txt, keyed by the check's own
// name (<NN-slug>/<Suite>.<Test>). A speed check times the student's call as a Workload, so the
// figure counts only if the timed work was done:
//
//   TEST(VectorAddSpeed, GridStride) {
//     ... a, b: DeviceBuffer<float>; out: DeviceBuffer<float>
//     grader::Workload add{
//         [&] { grader::refill_random(a.data(), n, -1, 1); grader::refill_random(b.data(), n, -1, 1);
//               grader::poison(out.data(), n); },
//         [&] { vector_add_grid_stride(a.data(), b.data(), out.data(), n); },
//         [&] { return output_matches_inputs(); }};
//     grader::expect_speed([&] {
//       return grader::fraction_of_copy_bandwidth(12.0 * n, grader::gpu_median_ms(add));
//     });
//   }
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <optional>
#include <string>

#include "grader/trace.h"

namespace grader {

struct TimingOptions {
  int warmup = 2;         // untimed runs first (module load, caches, clocks)
  int repeats = 15;       // timed runs; the median is reported
  bool flush_l2 = true;   // overwrite a buffer larger than L2 before each timed run
};

// The student's call as the grader times it.
struct Workload {
  // Untimed, before every run: new values into the timed input buffers, the output poisoned. A
  // call that remembers its last arguments and skips the work then leaves poison behind.
  std::function<void()> fresh_inputs;
  // The timed call.
  std::function<void()> call;
  // Whether the output of the last call is right for the inputs of the last fresh_inputs() (the
  // grader synchronises the device before asking).
  std::function<testing::AssertionResult()> output_is_right;
  // What the call must show when traced (grader/trace.h): one untimed call on fresh inputs is
  // traced after the timed ones and its output checked too.
  std::optional<Rules> what_ran = std::nullopt;
  // Optional, and cheap: a check of a few fresh random outputs, run untimed after every run, warm-up
  // and timed alike (the device synchronised). For figures whose ceiling cannot tell an empty call
  // from a fast one (work the hardware must do that takes less than a launch): a call that does
  // its work only on the calls whose output is checked otherwise leaves the median timed call
  // empty unseen. A call that skipped its work leaves poison, so a few values are enough.
  std::function<testing::AssertionResult()> every_run_is_right = nullptr;
};

// The median time of `work.call` in milliseconds. Each run gets fresh inputs and a cold L2; it
// is timed with CUDA events and, with the device synchronised, on the host clock: when the host
// time is clearly longer (work left running on another stream), the host time counts. After
// the timed runs the output is checked (work.output_is_right; large outputs on a grader::Sample),
// and after every run with work.every_run_is_right where set,
// and once more on fresh inputs unless the one run was clearly slow (over half a second, itself
// a run on fresh inputs); work still running when the call has returned fails too ("was the
// work skipped?", "not ready when the call returned"). With work.what_ran, one more call on
// fresh inputs is traced, untimed, and must follow those rules. With STEPWISE_TRACE_TRICK naming
// a speed trick (skip-repeated, checked-only, hidden-work: grader/trace.h), the trick is played on
// the warm-up and timed runs of a Workload with what_ran (the student's call; the grader's own
// yardsticks timed as a Workload set none), and the timing must fail saying so.
double gpu_median_ms(const Workload& work, TimingOptions options = {});

// The median GPU time of `launch`, from CUDA events around each run: for the grader's own
// measurements (a library, a baseline it ships, a copy), never for a student's call. A first
// run slower than half a second is taken as the answer (clearly slow code is not re-run).
double gpu_median_ms(const std::function<void()>& launch, TimingOptions options = {});
// The median wall-clock time of `run` on the CPU in milliseconds, over `repeats` runs (one when
// the first takes over a quarter of a second).
double cpu_median_ms(const std::function<void()>& run, int repeats = 3);

// Device-to-device copy bandwidth in GB/s (bytes read + bytes written), measured once per
// process on a large buffer, L2 flushed.
double copy_bandwidth_gbs();

// Device memory the harness keeps for the rest of the process once a check needs it (the buffer
// that flushes L2 between timed runs): no check's leftovers (grader/shared_run.h).
std::size_t device_bytes_kept_by_harness();

// What a speed check compares with its requirement, and how it was obtained, in words.
struct Figure {
  double value;      // e.g. 0.92 (of copy bandwidth) or 350 (times the CPU)
  std::string how;   // e.g. "2761 GB/s; copy 2990 GB/s"
  // A figure above this is impossible (the hardware cannot go faster): the check fails.
  double ceiling = std::numeric_limits<double>::infinity();
  // What the ceiling stands for, for the failure message, e.g. "faster than the host link can
  // move the distances back". Empty: "faster than the memory can move the data".
  std::string ceiling_means = "";
};

// A kernel that moves `bytes` (read + written) in `ms`, as a fraction of copy bandwidth. Its
// ceiling is 1.1: the memory cannot move the data faster than a copy does, give or take noise.
Figure fraction_of_copy_bandwidth(double bytes, double ms);
// `reference_ms` over `ms`: how many times faster than the reference (CPU, baseline, library).
Figure speedup(double reference_ms, double ms, const std::string& reference_name);
// The least time, in ms, in which any kernel can move `bytes` (read + written) through device
// memory: at 1.1 x the copy bandwidth (the ceiling of fraction_of_copy_bandwidth). A speedup over
// a reference whose work must move at least those bytes has the ceiling reference_ms / this.
double fastest_ms_to_move(double bytes);

// The host link's bandwidth in GB/s in the direction of `kind` (cudaMemcpyHostToDevice or
// cudaMemcpyDeviceToHost), as it runs on this machine now: the fastest of 7 event-timed copies of
// 64 MiB (less where device memory is short; as much under compute-sanitizer) between the grader's own pinned host buffer and
// device buffer, after one untimed copy; measured once per process and direction. The fastest,
// not the median: a copy slowed by other work on the link only lowers the figure a floor is made
// from, never raises it.
double host_link_gbs(cudaMemcpyKind kind);
// The least time, in ms, in which any copy of `bytes` between host and device memory in the
// direction of `kind` can be done: the bytes at 1.25 x host_link_gbs(kind). Derivation: pinned
// memory is the fastest a copy crosses the link (pageable memory is staged through a pinned
// buffer, and lower latency does not help: the time is bytes over bandwidth, a latency only adds
// to it), and 1.25 covers the noise between two timings of the same copy (lesson 05's
// CopySpeed.PinnedHostToDevice reads the same copies at 0.957-1.11 of each other over 5 H100 runs,
// and its ceiling is 1.25 for that). It replaces a fixed 1000 GB/s, faster than any host link there
// is, which let through copies timed at 1/18 of their time on an H100 (53-55 GB/s pinned).
double fastest_host_copy_ms(double bytes, cudaMemcpyKind kind);

// Measures with `measure` and compares the figure with the requirement named like the running
// check ("<NN-slug>/<Suite>.<Test>") in the requirements file. A figure below the minimum but
// within a factor 2, or above its ceiling, is measured again, up to 3 times in all, and the one
// nearest to passing counts; a figure still above its ceiling fails. Records the figure, the
// minimum and the key for the summary.
void expect_speed(const std::function<Figure()>& measure);

// Times a student's code reports for parts of one call (copies, kernels), taken one after another
// inside it, cannot add up to more than the whole call took on the host clock (2% and 0.1 ms
// allow for the two clocks). `parts` names them in the message, e.g. "the four times".
testing::AssertionResult parts_fit_in_whole(double parts_ms, double whole_ms, const std::string& parts);

// The requirement key of the running check: "<NN-slug>/<Suite>.<Test>".
std::string current_check_key();

}  // namespace grader
