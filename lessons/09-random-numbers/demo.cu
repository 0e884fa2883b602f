// Lesson 09 demo: seed 000's cuRAND program (uniform numbers from XORWOW on the GPU), what the
// numbers look like, what a generator costs, and pi by Monte Carlo with the host and device APIs.
//   lesson09-demo [--points N] [--seed S]
// Defaults: 2^26 points, seed 1234.
#include <curand_kernel.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "counting.cuh"
#include "random_numbers.h"
#include "stepwise/buffers.h"
#include "stepwise/demo.h"
#include "stepwise/event_timer.h"
#include "stepwise/not_implemented.h"

namespace {

constexpr double kPi = 3.14159265358979323846;

struct Options {
  std::size_t points = std::size_t{1} << 26;
  unsigned long long seed = 1234;
};

std::string help() {
  const Options o;
  return stepwise::help_text("usage: lesson09-demo [--points N] [--seed S]",
                             {{"--points N", "random points for pi, 1 to 2147483648", std::to_string(o.points)},
                              {"--seed S", "the generators' seed, 0 to 2^62", std::to_string(o.seed)}});
}

Options parse_options(int argc, char** argv) {
  Options o;
  stepwise::Flags flags(argc, argv, help());
  while (flags.next()) {
    if (flags.is("--points"))
      o.points = static_cast<std::size_t>(stepwise::parse_integer(flags.values(1)[0], "--points", 1, 1LL << 31));
    else if (flags.is("--seed"))
      o.seed = static_cast<unsigned long long>(stepwise::parse_integer(flags.values(1)[0], "--seed", 0, 1LL << 62));
    else
      flags.unknown();
  }
  return o;
}

// Runs one part of the demo; a step not written yet prints its message instead. Returns
// whether the part ran.
bool part(const char* title, const std::function<void()>& body) {
  std::printf("\n%s\n", title);
  try {
    body();
    return true;
  } catch (const stepwise::NotImplemented& e) {
    std::printf("  (%s)\n", e.what());
    return false;
  }
}

// The median of `runs` event timings of `work`, after one warm-up call.
float median_ms(const std::function<void()>& work, int runs = 9) {
  work();
  std::vector<float> ms;
  for (int i = 0; i < runs; ++i) ms.push_back(stepwise::time_gpu_ms(work));
  std::nth_element(ms.begin(), ms.begin() + runs / 2, ms.end());
  return ms[runs / 2];
}

// What it costs each thread to start its own generator at subsequence = its index: XORWOW must
// jump ahead 2^67 numbers per subsequence (matrix products), Philox only sets a counter.
template <typename State>
__global__ void init_states_kernel(unsigned long long seed, int n, unsigned int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  State state;
  curand_init(seed, i, 0, &state);
  out[i] = curand(&state);  // use the state, so the compiler keeps the work
}

template <typename State>
float init_ms(unsigned long long seed, int n, unsigned int* out) {
  return median_ms([&] {
    init_states_kernel<State><<<(n + kThreadsPerBlock - 1) / kThreadsPerBlock, kThreadsPerBlock>>>(seed, n, out);
    CUDA_CHECK_LAUNCH();
  }, 3);
}

void show_seed_program(const Options& o) {
  // The seed allocates np.empty(100000), float64 by default, so pyculib fills doubles; its text
  // says "1 million". This is the float version of the same call.
  const std::size_t n = 100000;
  stepwise::DeviceBuffer<float> d(n);
  UniformGenerator xorwow(Rng::xorwow, o.seed);
  xorwow.fill(d.data(), n);
  const std::vector<float> values = d.to_host();
  std::printf("  the first 10 of %zu uniform floats from XORWOW, seed %llu:\n  ", n, o.seed);
  for (int i = 0; i < 10; ++i) std::printf("%.7f ", values[i]);
  double mean = 0, low = 1, high = 0;
  for (float v : values) {
    mean += v;
    low = std::min<double>(low, v);
    high = std::max<double>(high, v);
  }
  mean /= n;
  std::printf("\n  smallest %.3g, largest %.9g, mean %.5f (expected 0.5 +- %.5f)\n", low, high, mean,
              std::sqrt(1.0 / 12.0 / n));
}

void show_generator_costs(const Options& o) {
  const std::size_t n = std::size_t{1} << 27;
  stepwise::DeviceBuffer<float> d(n);
  std::printf("  %-8s  create + seed + set up   fill 2^27 floats   rate\n", "");
  for (Rng rng : {Rng::xorwow, Rng::philox}) {
    const float create_ms = median_ms([&] { UniformGenerator g(rng, o.seed); }, 5);
    UniformGenerator g(rng, o.seed);
    const float fill_ms = median_ms([&] { g.fill(d.data(), n); });
    std::printf("  %-8s  %10.3f ms            %9.3f ms       %6.0f GSamples/s\n",
                rng == Rng::xorwow ? "XORWOW" : "Philox", create_ms, fill_ms, n / fill_ms / 1e6);
  }
}

void show_pi(const Options& o) {
  const std::size_t n = o.points;
  const double standard_error = 4 * std::sqrt(kPi / 4 * (1 - kPi / 4) / n);
  std::printf("  %zu points; one standard error is %.2g\n", n, standard_error);
  std::printf("  %-36s  %-12s %-10s %-10s %s\n", "method", "estimate", "error/SE", "time", "GPoints/s");
  auto report = [&](const char* name, const std::function<double()>& estimate) {
    try {
      double pi = 0;
      const float ms = median_ms([&] { pi = estimate(); }, 5);
      std::printf("  %-36s  %.8f  %+6.2f   %7.3f ms  %6.1f\n", name, pi, (pi - kPi) / standard_error, ms, n / ms / 1e6);
    } catch (const stepwise::NotImplemented& e) {
      std::printf("  %-36s  (%s)\n", name, e.what());
    }
  };
  stepwise::DeviceBuffer<float> uniforms(2 * n);
  for (Rng rng : {Rng::xorwow, Rng::philox}) {
    UniformGenerator g(rng, o.seed);
    report(rng == Rng::xorwow ? "host API, XORWOW: generate, count" : "host API, Philox: generate, count",
           [&] { return estimate_pi_host_api(g, uniforms.data(), n); });
  }
  report("device API, Philox in registers", [&] { return estimate_pi_device_api(o.seed, n); });
  report("device API, the same seed again", [&] { return estimate_pi_device_api(o.seed, n); });
  report("device API, seed + 1", [&] { return estimate_pi_device_api(o.seed + 1, n); });
}

void show_init_costs(const Options& o) {
  const int n = 1 << 20;
  stepwise::DeviceBuffer<unsigned int> out(n);
  const float xorwow = init_ms<curandStateXORWOW_t>(o.seed, n, out.data());
  const float philox = init_ms<curandStatePhilox4_32_10_t>(o.seed, n, out.data());
  std::printf("  %d threads, each curand_init(seed, its index, 0): XORWOW %.3f ms, Philox %.3f ms (%.0fx)\n", n,
              xorwow, philox, xorwow / philox);
}

}  // namespace

int main(int argc, char** argv) {
  return stepwise::run_demo(argc, argv, help(), [&] {
    const Options o = parse_options(argc, argv);
    bool any = false;
    any |= part("Seed 000: uniform numbers from XORWOW on the GPU (step 1)", [&] { show_seed_program(o); });
    any |= part("A generator is costly to make, cheap to use (step 1)", [&] { show_generator_costs(o); });
    any |= part("Pi by Monte Carlo (steps 2 and 3)", [&] { show_pi(o); });
    part("Starting one generator per thread, device API (given code)", [&] { show_init_costs(o); });
    if (!any) stepwise::not_implemented(STEPWISE_LESSON_DIR, 1);
  });
}
