// Lesson 12 demo: the seed's SourceModule example in C++, a compile error, and a kernel
// specialised at run time against the same kernel compiled ahead of time and against a generic
// one; compile and cache-lookup times.
//   lesson12-demo [--n N]     N: elements for the timings (default 33554432 = 2^25)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "multiply_them.h"
#include "polynomial.h"
#include "polynomial_aot.cuh"
#include "polynomial_cpu.h"
#include "runtime_compilation.h"
#include "stepwise/buffers.h"
#include "stepwise/demo.h"
#include "stepwise/event_timer.h"
#include "stepwise/host_timer.h"

namespace {

std::vector<float> uniform_floats(std::size_t n, float lo, float hi, std::mt19937& rng) {
  std::uniform_real_distribution<float> pick(lo, hi);
  std::vector<float> values(n);
  for (float& v : values) v = pick(rng);
  return values;
}

// The median GPU time of `work` over 21 runs, after one run that is not counted.
template <typename Work>
float median_ms(Work&& work) {
  work();
  std::vector<float> times;
  for (int run = 0; run < 21; ++run) times.push_back(stepwise::time_gpu_ms(work));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// The seed: multiply_them for 400 elements, and for 2000, which one block could not do.
void seed_example(std::mt19937& rng) {
  Kernel kernel;
  const double compile_ms = stepwise::host_ms([&] { kernel = compile_kernel(kMultiplyThemSource, "multiply_them"); });
  std::printf("multiply_them compiled and loaded for %s in %.1f ms\n", sm_name(kernel.architecture()).c_str(),
              compile_ms);
  for (int n : {400, 2000}) {
    const std::vector<float> a = uniform_floats(n, -3, 3, rng), b = uniform_floats(n, -3, 3, rng);
    std::vector<float> dest(n, std::nanf(""));
    multiply_them_in_out(kernel, dest.data(), a.data(), b.data(), n);
    double largest = 0;  // the seed prints dest - a*b: all zeros
    for (int i = 0; i < n; ++i) largest = std::max(largest, std::fabs(static_cast<double>(dest[i]) - a[i] * b[i]));
    std::printf("  n = %4d: largest |dest - a*b| = %g\n", n, largest);
  }
}

// A source with a mistake on line 3: the error carries NVRTC's log, and the program goes on.
void compile_error_example() {
  const char* broken = "extern \"C\" __global__ void scale(float* x, int n) {\n"
                       "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                       "  if (i < n) x[i] = x[i] * factor;\n"
                       "}\n";
  try {
    compile_to_cubin(broken, "scale.cu", current_architecture());
    std::printf("\nthe broken source compiled?\n");
  } catch (const CompileError& e) {
    std::printf("\nA source with a mistake gives a CompileError, and the program goes on:\n%s", e.what());
  }
}

void polynomial_timings(int n, std::mt19937& rng) {
  const std::vector<float> x = uniform_floats(n, -0.9f, 0.9f, rng);
  auto d_x = stepwise::DeviceBuffer<float>::from_host(x);
  stepwise::DeviceBuffer<float> d_out(n);
  KernelCache cache;

  std::printf("\nPolynomials of %d floats in [-0.9, 0.9] (GPU times, median of 21 runs)\n", n);
  std::printf("  %-7s %14s %16s %9s %12s %10s\n", "degree", "generic ms", "specialised ms", "speedup", "compile ms",
              "max error");
  for (int degree : {4, 8, 16, 32, 48, 64}) {
    const std::vector<float> c = uniform_floats(degree + 1, -1, 1, rng);
    auto d_c = stepwise::DeviceBuffer<float>::from_host(c);
    const double compile_ms = stepwise::host_ms([&] {
      evaluate_polynomial(cache, c, d_x.data(), d_out.data(), n);  // compiles
      CUDA_CHECK(cudaDeviceSynchronize());
    });
    const std::vector<float> out = d_out.to_host();
    double worst = 0;  // error over the bound: at most 1
    for (int i = 0; i < n; i += std::max(1, n / 100000))
      worst = std::max(worst, std::fabs(out[i] - polynomial_reference(c, x[i])) / polynomial_error_bound(c, x[i]));
    const float generic = median_ms([&] { evaluate_polynomial_generic(d_c.data(), degree, d_x.data(), d_out.data(), n); });
    const float specialised = median_ms([&] { evaluate_polynomial(cache, c, d_x.data(), d_out.data(), n); });
    std::printf("  %-7d %14.3f %16.3f %8.2fx %12.1f %7.2f of bound\n", degree, generic, specialised,
                generic / specialised, compile_ms, worst);
  }

  // The same polynomial, compiled ahead of time by nvcc and at run time by NVRTC.
  const std::vector<float> fixed = fixed_polynomial_coefficients();
  evaluate_polynomial(cache, fixed, d_x.data(), d_out.data(), n);
  const float aot = median_ms([&] { evaluate_fixed_polynomial_aot(d_x.data(), d_out.data(), n); });
  const float rtc = median_ms([&] { evaluate_polynomial(cache, fixed, d_x.data(), d_out.data(), n); });
  std::printf("\nDegree %d, fixed coefficients: nvcc ahead of time %.3f ms, NVRTC at run time %.3f ms "
              "(ratio %.3f)\n", polynomial_aot::kFixedDegree, aot, rtc, aot / rtc);

  // What the cache saves: a lookup against a compilation of the same source.
  const std::string source = polynomial_source(fixed);
  const int before = cache.compilations();
  std::vector<double> lookups_us;
  for (int i = 0; i < 1001; ++i) {
    lookups_us.push_back(1000 * stepwise::host_ms([&] { cache.get(source, kPolynomialKernelName); }));
  }
  std::sort(lookups_us.begin(), lookups_us.end());
  KernelCache empty;
  const double compile_ms = stepwise::host_ms([&] { empty.get(source, kPolynomialKernelName); });
  std::printf("Cache: a lookup takes %.2f us (median of 1001, %d compilations), compiling and loading the same "
              "source %.1f ms\n", lookups_us[500], cache.compilations() - before, compile_ms);
}

}  // namespace

int main(int argc, char** argv) {
  const int default_n = 1 << 25;
  const std::string help = stepwise::help_text(
      "usage: lesson12-demo [--n N]", {{"--n N", "elements for the timings, 1 to 268435456", std::to_string(default_n)}});
  return stepwise::run_demo(argc, argv, help, [&] {
    int n = default_n;
    stepwise::Flags flags(argc, argv, help);
    while (flags.next()) {
      if (flags.is("--n")) n = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--n", 1, 1 << 28));
      else flags.unknown();
    }
    std::mt19937 rng(12);
    const GpuArchitecture gpu = current_architecture();
    std::printf("This GPU is compute capability %d.%d: NVRTC compiles for %s\n\n", gpu.major, gpu.minor,
                sm_name(gpu).c_str());
    seed_example(rng);
    compile_error_example();
    polynomial_timings(n, rng);
  });
}
