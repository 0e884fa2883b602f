// Lesson 02 demo: e^x of an array on the GPU and on the CPU: how accurate each is, and where the
// time goes.
//   lesson02-demo [n]        n: how many floats (default 10000000, as in the seed article)
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "elementwise_exp.h"
#include "stepwise/buffers.h"
#include "stepwise/demo.h"
#include "stepwise/host_timer.h"

namespace {

using ExpFunction = void (*)(const float*, float*, int);

// The spacing of floats around v: floats in [2^k, 2^(k+1)) are 2^(k-23) apart, subnormal ones
// (below 2^-126) 2^-149.
double float_spacing(double v) {
  const int exponent = v == 0 ? -126 : std::max(std::ilogb(std::fabs(v)), -126);
  return std::ldexp(1.0, exponent - 23);
}

struct Errors {
  double max_ulps = 0;      // in units of the float spacing at the exact value
  double max_relative = 0;  // |got - exact| / exact
};

// The errors of got[i] against e^x[i] computed in double, which is exact at float precision.
Errors errors_of(const std::vector<float>& x, const std::vector<float>& got) {
  Errors errors;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double exact = std::exp(static_cast<double>(x[i]));
    const double error = std::fabs(got[i] - exact);
    errors.max_ulps = std::max(errors.max_ulps, error / float_spacing(exact));
    errors.max_relative = std::max(errors.max_relative, error / exact);
  }
  return errors;
}

// Runs one of the lesson's kernels on host values and returns its results.
std::vector<float> on_gpu(ExpFunction exp_function, const std::vector<float>& x) {
  auto d_x = stepwise::DeviceBuffer<float>::from_host(x);
  stepwise::DeviceBuffer<float> d_out(x.size());
  exp_function(d_x.data(), d_out.data(), static_cast<int>(x.size()));
  return d_out.to_host();  // the copy waits for the kernel
}

std::vector<float> uniform_floats(std::size_t n, float lo, float hi, std::mt19937& rng) {
  std::uniform_real_distribution<float> pick(lo, hi);
  std::vector<float> values(n);
  for (float& v : values) v = pick(rng);
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  const int default_n = 10000000;
  const std::string help = stepwise::help_text(
      "usage: lesson02-demo [n]", {{"n", "how many floats, 1 to 268435456", std::to_string(default_n)}});
  return stepwise::run_demo(argc, argv, help, [&] {
    const std::vector<std::string> args = stepwise::positional_arguments(argc, argv, 1);
    const int n = args.empty() ? default_n : static_cast<int>(stepwise::parse_integer(args[0], "n", 1, 1 << 28));
    // Standard normal inputs, like the seed's np.random.randn(n).astype(np.float32).
    std::mt19937 rng(1);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> x(n), cpu(n);
    for (float& v : x) v = normal(rng);

    // Accuracy (steps 1 and 2).
    const std::vector<float> gpu = on_gpu(exp_array, x), fast = on_gpu(exp_array_fast, x);
    const double cpu_ms = stepwise::host_ms([&] {
      for (int i = 0; i < n; ++i) cpu[i] = std::exp(x[i]);
    });

    std::printf("exp of %d floats, standard normal inputs\n\n", n);
    std::printf("The first values, to 9 significant digits (enough to tell any two floats apart):\n");
    std::printf("  %-14s %-14s %-14s %s\n", "x", "expf (GPU)", "std::exp (CPU)", "exact");
    for (int i = 0; i < std::min(n, 5); ++i)
      std::printf("  %-14.9g %-14.9g %-14.9g %.12g\n", x[i], gpu[i], cpu[i], std::exp(static_cast<double>(x[i])));

    const Errors expf_errors = errors_of(x, gpu), fast_errors = errors_of(x, fast), cpu_errors = errors_of(x, cpu);
    std::printf("\nAccuracy against exp in double (exact at float precision), all %d values:\n", n);
    std::printf("                    max error    max relative error\n");
    std::printf("  expf   (GPU)      %5.2f ulp    %.2g\n", expf_errors.max_ulps, expf_errors.max_relative);
    std::printf("  __expf (GPU)      %5.2f ulp    %.2g\n", fast_errors.max_ulps, fast_errors.max_relative);
    std::printf("  std::exp (CPU)    %5.2f ulp    %.2g\n", cpu_errors.max_ulps, cpu_errors.max_relative);
    std::printf("A float holds 24 significant bits, about 7.2 decimal digits: relative errors near 1e-7\n"
                "mean GPU and CPU agree to about 7 significant digits, as the seed article saw.\n\n");

    std::printf("__expf's error grows with |x|; expf's does not (max error over 2^20 uniform inputs):\n");
    std::printf("  range          expf        __expf      __expf's bound, 2 + floor(1.173 |x|)\n");
    for (float limit : {1.0f, 10.0f, 80.0f}) {
      const std::vector<float> sample = uniform_floats(1 << 20, -limit, limit, rng);
      const Errors accurate = errors_of(sample, on_gpu(exp_array, sample));
      const Errors fast_sample = errors_of(sample, on_gpu(exp_array_fast, sample));
      std::printf("  [-%2.0f, %2.0f]    %5.2f ulp   %6.2f ulp   %3.0f ulp\n", limit, limit, accurate.max_ulps,
                  fast_sample.max_ulps, 2 + std::floor(1.173 * limit));
    }

    // Where the time goes (step 3).
    std::vector<float> timed_out(n);
    exp_timed(x.data(), timed_out.data(), std::min(n, 1024));  // warm-up: the first call loads code
    const ExpTimings t = exp_timed(x.data(), timed_out.data(), n);
    const double mb = 4.0 * n / 1e6;  // one array of floats, in MB
    const double with_copies_ms = t.copy_in_ms + t.kernel_ms + t.copy_out_ms;
    std::printf("\nGPU, timed with CUDA events (%.1f MB per array):\n", mb);
    std::printf("  copy x to the GPU           %9.3f ms  (%6.1f GB/s)\n", t.copy_in_ms, mb / t.copy_in_ms);
    std::printf("  kernel, expf                %9.3f ms  (%6.0f GB/s read + written)\n", t.kernel_ms, 2 * mb / t.kernel_ms);
    std::printf("  kernel, __expf              %9.3f ms  (%6.0f GB/s read + written)\n", t.fast_kernel_ms, 2 * mb / t.fast_kernel_ms);
    std::printf("  copy e^x back to the host   %9.3f ms  (%6.1f GB/s)\n", t.copy_out_ms, mb / t.copy_out_ms);
    std::printf("CPU, one thread, std::exp     %9.3f ms\n", cpu_ms);
    std::printf("The expf kernel is %.0fx as fast as one CPU thread; counting both copies, the GPU is %.1fx as fast.\n",
                cpu_ms / t.kernel_ms, cpu_ms / with_copies_ms);
    std::printf("For comparison, 10M floats: the seed article (PyCUDA, GeForce MX250) numpy 26.1 ms, cumath.exp\n"
                "3.47 ms per call (timed on the host, a new output array each call, no copy back).\n");
  });
}
