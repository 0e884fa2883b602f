// Lesson 07 demo: the seed's race, the three sums, and the size below which one CPU thread
// beats the GPU once the copies are counted.
//   lesson07-demo [--n N] [--runs R]
// N: how many floats the sums add (default 2^26); R: how many times the racy versions run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "racy.cuh"
#include "reduction.h"
#include "reduction_cpu.h"
#include "stepwise/buffers.h"
#include "stepwise/demo.h"
#include "stepwise/event_timer.h"
#include "stepwise/host_timer.h"
#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace {

struct Options {
  int n = 1 << 26;
  int runs = 5;
};

std::string help() {
  const Options o;
  return stepwise::help_text("usage: lesson07-demo [--n N] [--runs R]",
                             {{"--n N", "floats the sums add, 1 to 268435456", std::to_string(o.n)},
                              {"--runs R", "runs of each racy version, 1 to 100", std::to_string(o.runs)}});
}

Options parse_options(int argc, char** argv) {
  Options o;
  stepwise::Flags flags(argc, argv, help());
  while (flags.next()) {
    if (flags.is("--n")) o.n = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--n", 1, 1 << 28));
    else if (flags.is("--runs")) o.runs = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--runs", 1, 100));
    else flags.unknown();
  }
  return o;
}

std::vector<float> uniform_floats(std::size_t n, float lo, float hi, std::mt19937& rng) {
  std::uniform_real_distribution<float> pick(lo, hi);
  std::vector<float> values(n);
  for (float& v : values) v = pick(rng);
  return values;
}

// The seed gives no sizes. Its names are those of DART's "Lorenz 04" model (Lorenz 2005, Model
// III), whose defaults are 960 variables and smooth_steps = 12: 960 outputs of 2 * 12 + 1 terms.
constexpr int kSeedSize = 960;
constexpr int kSeedHalfWidth = 12;

// The seed gives no weights either. These are the demo's own: a triangle, largest in the
// middle, summing to 1 with the halved ends.
std::vector<float> seed_weights(int s) {
  std::vector<float> a(2 * s + 1);
  for (int k = 0; k <= 2 * s; ++k) a[k] = static_cast<float>(s + 1 - std::abs(k - s)) / ((s + 1) * (s + 1) - 1);
  return a;
}

// The median of `runs` wall-clock times of `work`, in milliseconds.
double median_ms(const std::function<void()>& work, int runs = 7) {
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) ms.push_back(stepwise::host_ms(work));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

float read_scalar(const stepwise::DeviceBuffer<float>& value) { return value.to_host()[0]; }

// Part 1: the seed's racy stencil next to the right one, at DART's default size.
void show_racy_stencil(int runs, std::mt19937& rng, std::string& missing) {
  const int n = kSeedSize, s = kSeedHalfWidth;
  const std::vector<float> z = uniform_floats(n + 2 * s, 0, 1, rng), a = seed_weights(s);
  std::vector<double> exact(n);
  smooth_cpu(z.data(), a.data(), exact.data(), n, s);
  auto d_z = stepwise::DeviceBuffer<float>::from_host(z), d_a = stepwise::DeviceBuffer<float>::from_host(a);
  stepwise::DeviceBuffer<float> d_out(n);

  std::printf("1. The seed's smoothing stencil, %d outputs of %d terms each\n", n, 2 * s + 1);
  std::printf("   %-40s %10s %10s %10s %12s\n", "", "out[0]", "out[1]", "out[2]", "max error");
  auto print_row = [&](const std::string& name) {
    const std::vector<float> out = d_out.to_host();
    double max_error = 0;
    for (int i = 0; i < n; ++i) max_error = std::max(max_error, std::fabs(out[i] - exact[i]));
    std::printf("   %-40s %10.6f %10.6f %10.6f %12.3g\n", name.c_str(), out[0], out[1], out[2], max_error);
  };
  std::printf("   %-40s %10.6f %10.6f %10.6f\n", "CPU, double", exact[0], exact[1], exact[2]);
  for (int r = 1; r <= runs; ++r) {
    racy_smooth(d_z.data(), d_a.data(), d_out.data(), n, s);
    print_row("racy: one thread per term, run " + std::to_string(r));
  }
  try {
    smooth(d_z.data(), d_a.data(), d_out.data(), n, s);
    print_row("smooth(): one thread per output");
  } catch (const stepwise::NotImplemented& e) {
    std::printf("   %-40s %s\n", "smooth(): one thread per output", e.what());
    missing = e.what();
  }
}

// Part 2: the racy sum, then the three sums, of the same n values in [0.5, 1].
void show_sums(int n, int runs, std::mt19937& rng, std::string& missing) {
  const std::vector<float> x = uniform_floats(n, 0.5f, 1.0f, rng);
  const long double exact = sum_cpu<long double>(x.data(), x.size());
  auto d_x = stepwise::DeviceBuffer<float>::from_host(x);
  stepwise::DeviceBuffer<float> d_sum(1);

  std::printf("\n2. The sum of %d floats in [0.5, 1]: exact (long double) %.1Lf\n", n, exact);
  std::printf("   %-34s %16s %14s %10s\n", "", "sum", "error", "GPU ms");
  using Sum = void (*)(const float*, int, float*);
  auto show = [&](const std::string& name, Sum sum) {
    sum(d_x.data(), n, d_sum.data());  // once untimed: loads the kernel
    const float ms = stepwise::time_gpu_ms([&] { sum(d_x.data(), n, d_sum.data()); });
    const float got = read_scalar(d_sum);
    std::printf("   %-34s %16.1f %14.1f %10.3f\n", name.c_str(), got, static_cast<double>(got - exact), ms);
  };
  for (int r = 1; r <= runs; ++r) show("racy: *sum = *sum + x[i], run " + std::to_string(r), racy_sum);
  const std::pair<const char*, Sum> sums[] = {
      {"step 2, sum_atomic, run 1", sum_atomic}, {"step 2, sum_atomic, run 2", sum_atomic},
      {"step 3, sum_tree, run 1", sum_tree},     {"step 3, sum_tree, run 2", sum_tree},
      {"step 4, sum_shuffle, run 1", sum_shuffle}, {"step 4, sum_shuffle, run 2", sum_shuffle}};
  for (const auto& [name, sum] : sums) {
    try {
      show(name, sum);
    } catch (const stepwise::NotImplemented& e) {
      std::printf("   %-34s %s\n", name, e.what());
      if (missing.empty()) missing = e.what();
    }
  }
  std::printf("   A float sum of values this large lands on a float near %.0Lf, %g apart from the next.\n",
              exact, std::nextafter(static_cast<float>(exact), 1e30f) - static_cast<float>(exact));
}

// Part 3: one CPU thread against the GPU with its copies (host arrays in, result out), over a
// range of sizes. Device memory is allocated before the clock starts.
void show_crossover(std::mt19937& rng) {
  const int s = kSeedHalfWidth;
  const std::vector<float> a = seed_weights(s);
  std::printf("\n3. One CPU thread against the GPU, copies counted (median of 7 runs, ms)\n");
  std::printf("   %10s %12s %12s %12s   %12s %12s %12s\n", "n", "stencil CPU", "GPU+copies", "winner",
              "sum CPU", "GPU+copies", "winner");
  int stencil_cpu_last_won = 0, sum_cpu_last_won = 0;  // the largest size at which the CPU was faster
  for (int n = kSeedSize; n <= (1 << 24); n *= 4) {
    const std::vector<float> z = uniform_floats(n + 2 * s, 0, 1, rng);
    std::vector<float> out(n);
    stepwise::DeviceBuffer<float> d_z(z.size()), d_a(a.size()), d_out(n), d_sum(1);
    const double stencil_cpu = median_ms([&] { smooth_cpu(z.data(), a.data(), out.data(), n, s); });
    const double stencil_gpu = median_ms([&] {
      d_z.copy_from_host(z);
      d_a.copy_from_host(a);
      smooth(d_z.data(), d_a.data(), d_out.data(), n, s);
      CUDA_CHECK(cudaMemcpy(out.data(), d_out.data(), d_out.bytes(), cudaMemcpyDeviceToHost));
    });
    volatile float cpu_sum = 0;  // kept, so the compiler cannot drop the CPU loop
    float gpu_sum = 0;
    const double sum_cpu_ms = median_ms([&] { cpu_sum = sum_cpu<float>(z.data(), n); });
    const double sum_gpu_ms = median_ms([&] {
      CUDA_CHECK(cudaMemcpy(d_z.data(), z.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
      sum_shuffle(d_z.data(), n, d_sum.data());
      CUDA_CHECK(cudaMemcpy(&gpu_sum, d_sum.data(), sizeof(float), cudaMemcpyDeviceToHost));
    });
    if (stencil_cpu < stencil_gpu) stencil_cpu_last_won = n;
    if (sum_cpu_ms < sum_gpu_ms) sum_cpu_last_won = n;
    std::printf("   %10d %12.4f %12.4f %12s   %12.4f %12.4f %12s\n", n, stencil_cpu, stencil_gpu,
                stencil_cpu < stencil_gpu ? "CPU" : "GPU", sum_cpu_ms, sum_gpu_ms, sum_cpu_ms < sum_gpu_ms ? "CPU" : "GPU");
  }
  std::printf("   Largest size at which one CPU thread was faster: stencil n = %d, sum n = %d (0: never).\n"
              "   DART's default model, the size part 1 used, has %d outputs.\n",
              stencil_cpu_last_won, sum_cpu_last_won, kSeedSize);
}

}  // namespace

int main(int argc, char** argv) {
  return stepwise::run_demo(argc, argv, help(), [&] {
    const Options o = parse_options(argc, argv);
    std::mt19937 rng(7);
    std::string missing;
    show_racy_stencil(o.runs, rng, missing);
    show_sums(o.n, o.runs, rng, missing);
    if (!missing.empty()) {
      std::printf("\n3. The CPU-or-GPU comparison needs steps 1 and 4.\n");
      throw stepwise::NotImplemented(missing);  // exit as a TODO until every step is written
    }
    show_crossover(rng);
  });
}
