// Lesson 08 demo: seed 004's row functions (its printed tables, then the row-major, transposed and
// tiled layouts timed), and seed 003's ensemble of Lorenz-96 runs, one block or one thread per
// member, against one CPU thread.
//   lesson08-demo [--rows N] [--cols C] [--members M] [--steps T]
// Defaults: 16,777,216 rows of 4 floats (the seed had 1,280,000: too few to leave the 50 MB L2 of
// an H100), the seed's 40 members and 4096 more, 200 RK4 steps of a 40-variable model.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ensemble.h"
#include "reference_cpu.h"
#include "row_kernels.h"
#include "stepwise/buffers.h"
#include "stepwise/demo.h"
#include "stepwise/event_timer.h"
#include "stepwise/host_timer.h"
#include "stepwise/not_implemented.h"

namespace {

struct Settings {
  int rows = 1 << 24;
  int cols = 4;
  int members = 4096;
  int steps = 200;
};

std::string help() {
  const Settings s;
  return stepwise::help_text(
      "usage: lesson08-demo [--rows N] [--cols C] [--members M] [--steps T]",
      {{"--rows N", "rows of the layout timings, 1 to 268435456", std::to_string(s.rows)},
       {"--cols C", "floats per row, 2 to " + std::to_string(kMaxTiledCols), std::to_string(s.cols)},
       {"--members M", "members of the larger ensemble, 1 to 1048576", std::to_string(s.members)},
       {"--steps T", "RK4 steps of each member, 1 to 100000", std::to_string(s.steps)}});
}

Settings parse_settings(int argc, char** argv) {
  Settings s;
  stepwise::Flags flags(argc, argv, help());
  while (flags.next()) {
    if (flags.is("--rows")) s.rows = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--rows", 1, 1 << 28));
    else if (flags.is("--cols")) s.cols = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--cols", 2, kMaxTiledCols));
    else if (flags.is("--members")) s.members = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--members", 1, 1 << 20));
    else if (flags.is("--steps")) s.steps = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--steps", 1, 100000));
    else flags.unknown();
  }
  return s;
}

// The seed's two printed tables, from the GPU: power sums of x = 1, 2, 3, 4, 1 and Hermite rows
// of x = 0 .. 4, 4 columns each.
void print_seed_tables() {
  const std::vector<float> powers_x = {1, 2, 3, 4, 1}, hermite_x = {0, 1, 2, 3, 4};
  auto d_x = stepwise::DeviceBuffer<float>::from_host(powers_x);
  stepwise::DeviceBuffer<float> d_out(5 * 4);
  auto print = [&](const char* title) {
    const std::vector<float> out = d_out.to_host();
    std::printf("%s\n", title);
    for (int r = 0; r < 5; ++r)
      std::printf("  [%11.7g %11.7g %11.7g %11.7g]\n", out[r * 4], out[r * 4 + 1], out[r * 4 + 2], out[r * 4 + 3]);
  };
  power_sums(Target::gpu, d_x.data(), d_out.data(), 5, 4);
  print("The seed's first function, x = 1 2 3 4 1 (x + x^2 + ... per column):");
  d_x.copy_from_host(hermite_x);
  hermite(Target::gpu, d_x.data(), d_out.data(), 5, 4);
  print("The seed's actual function, x = 0 .. 4 (He_k(x) / sqrt(k!)):");
}

// The median of 5 runs of `launch`, after one untimed run.
template <typename Launch>
float median_ms(Launch&& launch) {
  launch();
  std::vector<float> times;
  for (int i = 0; i < 5; ++i) times.push_back(stepwise::time_gpu_ms(launch));
  std::sort(times.begin(), times.end());
  return times[2];
}

void time_layouts(const Settings& s) {
  std::vector<float> x(s.rows);
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> uniform(-4, 4);
  for (float& v : x) v = uniform(rng);
  auto d_x = stepwise::DeviceBuffer<float>::from_host(x);
  stepwise::DeviceBuffer<float> d_out(static_cast<std::size_t>(s.rows) * s.cols);
  const double bytes = 4.0 * s.rows * (1 + s.cols);
  std::printf("\nHermite rows of %d floats, %d rows (%.0f MB moved per call), GPU time of one call:\n", s.cols, s.rows,
              bytes / 1e6);
  struct Version {
    const char* name;
    std::function<void()> launch;
  };
  const Version versions[] = {
      {"row-major, one thread per row", [&] { hermite(Target::gpu, d_x.data(), d_out.data(), s.rows, s.cols, Layout::row_major); }},
      {"transposed (column-major)", [&] { hermite(Target::gpu, d_x.data(), d_out.data(), s.rows, s.cols, Layout::column_major); }},
      {"row-major through a tile", [&] { hermite_row_major_tiled(d_x.data(), d_out.data(), s.rows, s.cols); }},
  };
  float first_ms = 0;
  for (const Version& v : versions) {
    try {
      const float ms = median_ms(v.launch);
      if (first_ms == 0) first_ms = ms;
      std::printf("  %-32s %8.3f ms %7.0f GB/s  %5.2fx the row-major time\n", v.name, ms, bytes / (ms * 1e6),
                  first_ms / ms);
    } catch (const stepwise::NotImplemented& e) {
      std::printf("  %-32s %s\n", v.name, e.what());
    }
  }
}

// The ensemble: M members from random states, on the GPU both ways and on one CPU thread.
void time_ensemble(int members, const Settings& s) {
  const Lorenz96 model;
  std::vector<double> initial(static_cast<std::size_t>(members) * model.size);
  std::mt19937 rng(members);
  std::uniform_real_distribution<double> uniform(-5, 13);
  for (double& v : initial) v = uniform(rng);
  auto d_initial = stepwise::DeviceBuffer<double>::from_host(initial);
  stepwise::DeviceBuffer<double> d_final(initial.size());

  std::vector<double> cpu;
  const double cpu_ms = stepwise::host_ms([&] { cpu = ensemble_cpu<double>(initial, members, model, s.steps); });
  std::printf("\n%d members, %d RK4 steps of Lorenz-96 (N = %d, F = %g, dt = %g), float64:\n", members, s.steps,
              model.size, model.forcing, model.dt);
  std::printf("  %-24s %9.3f ms\n", "one CPU thread", cpu_ms);
  auto run = [&](const char* name, auto&& launch) {
    try {
      const float ms = median_ms(launch);
      const std::vector<double> gpu = d_final.to_host();
      double worst = 0;
      for (std::size_t i = 0; i < gpu.size(); ++i) worst = std::max(worst, std::abs(gpu[i] - cpu[i]));
      std::printf("  %-24s %9.3f ms  %7.1fx one CPU thread, largest difference from it %.1e\n", name, ms, cpu_ms / ms,
                  worst);
    } catch (const stepwise::NotImplemented& e) {
      std::printf("  %-24s %s\n", name, e.what());
    }
  };
  run("one block per member", [&] { ensemble_block_per_member(d_initial.data(), d_final.data(), members, model, s.steps); });
  run("one thread per member", [&] { ensemble_thread_per_member(d_initial.data(), d_final.data(), members, model, s.steps); });
}

}  // namespace

int main(int argc, char** argv) {
  return stepwise::run_demo(argc, argv, help(), [&] {
    const Settings s = parse_settings(argc, argv);
    try {
      print_seed_tables();
    } catch (const stepwise::NotImplemented& e) {
      std::printf("The seed's tables: %s\n", e.what());
    }
    time_layouts(s);
    time_ensemble(40, s);
    time_ensemble(s.members, s);
  });
}
