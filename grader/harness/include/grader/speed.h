#pragma once
// Speed checks. Every figure is a ratio to something measured in the same run on the same
// machine: the device's copy bandwidth, the single-thread CPU reference, a baseline kernel the
// grader ships, or a library. Minimums live in grader/requirements.txt.
//
//   grader::expect_speed("vector_add", [&] {
//     const double ms = grader::gpu_median_ms([&] { vector_add(a, b, out, n); });
//     return grader::fraction_of_copy_bandwidth(3.0 * n * sizeof(float), ms);
//   });
#include <functional>
#include <string>

namespace grader {

struct TimingOptions {
  int warmup = 2;         // untimed runs first (module load, caches, clocks)
  int repeats = 15;       // timed runs; the median is reported
  bool flush_l2 = true;   // overwrite a buffer larger than L2 before each timed run
};

// The median GPU time of `launch` in milliseconds, from CUDA events around each run. A first
// run slower than half a second is taken as the answer (clearly slow code is not re-run).
double gpu_median_ms(const std::function<void()>& launch, TimingOptions options = {});
// The median wall-clock time of `run` on the CPU in milliseconds.
double cpu_median_ms(const std::function<void()>& run, int repeats = 3);

// Device-to-device copy bandwidth in GB/s (bytes read + bytes written), measured once per
// process on a large buffer, L2 flushed.
double copy_bandwidth_gbs();

// What a speed check compares with its requirement, and how it was obtained, in words.
struct Figure {
  double value;      // e.g. 0.92 (of copy bandwidth) or 350 (times the CPU)
  std::string how;   // e.g. "2761 GB/s; copy 2990 GB/s"
};

// A kernel that moves `bytes` (read + written) in `ms`, as a fraction of copy bandwidth.
Figure fraction_of_copy_bandwidth(double bytes, double ms);
// `reference_ms` over `ms`: how many times faster than the reference (CPU, baseline, library).
Figure speedup(double reference_ms, double ms, const std::string& reference_name);

// Measures with `measure` and compares the figure with the minimum for "<lesson>.<check>" in
// the requirements file. A figure below the minimum but within a factor 2 is measured again,
// up to 3 times in all, and the best counts. Records measured and required for the summary.
void expect_speed(const std::string& check, const std::function<Figure()>& measure);

}  // namespace grader
