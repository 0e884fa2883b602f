// Lesson 13 demo: seed 004's table of power sums as a row scan, then one large int array scanned
// every way (three phases, one pass, CUB) and compacted (yours, CUB), each in GB/s beside a copy.
//   lesson13-demo [--n N]
// N: the elements of the large array (default 2^28, fewer where device memory is short).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "scan.h"
#include "stepwise/buffers.h"
#include "stepwise/demo.h"
#include "stepwise/event_timer.h"
#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace {

constexpr int kDefaultN = 1 << 28;

std::string help() {
  return stepwise::help_text("usage: lesson13-demo [--n N]",
                             {{"--n N", "elements of the large array, 1 to 1073741824",
                               std::to_string(kDefaultN) + ", fewer where device memory is short"}});
}

int parse_n(int argc, char** argv) {
  int n = kDefaultN;
  stepwise::Flags flags(argc, argv, help());
  while (flags.next()) {
    if (flags.is("--n")) n = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--n", 1, 1 << 30));
    else flags.unknown();
  }
  return n;
}

// The median GPU time of `work` over 9 runs after 2 warm-up runs, in milliseconds.
double median_ms(const std::function<void()>& work) {
  for (int i = 0; i < 2; ++i) work();
  std::vector<double> ms;
  for (int i = 0; i < 9; ++i) ms.push_back(stepwise::time_gpu_ms(work));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Part 1: the seed's rows. Row r holds x, x^2, x^3, x^4 with x = r % 4 + 1 (the seed's input,
// 1,280,000 rows of 4); the running sum along each row is the seed's power-sum table.
void show_seed_table(std::string& missing) {
  const int rows = 1280000, cols = 4;
  std::vector<float> x(static_cast<std::size_t>(rows) * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) x[static_cast<std::size_t>(r) * cols + c] = std::pow(static_cast<float>(r % 4 + 1), c + 1.0f);
  auto d_x = stepwise::DeviceBuffer<float>::from_host(x);
  stepwise::DeviceBuffer<float> d_out(x.size());
  std::printf("1. Seed 004's rows: %d rows of x, x^2, x^3, x^4 (x = 1..4), scanned along each row\n", rows);
  const struct {
    const char* name;
    void (*scan)(const float*, float*, int, int, cudaStream_t);
  } versions[] = {{"Hillis-Steele", scan_rows_hillis_steele}, {"Blelloch", scan_rows_blelloch}};
  for (const auto& v : versions) {
    try {
      const double ms = median_ms([&] { v.scan(d_x.data(), d_out.data(), rows, cols, nullptr); });
      const std::vector<float> out = d_out.to_host();
      std::printf("   %-14s %.3f ms; the first rows:\n", v.name, ms);
      for (int r = 0; r < 4; ++r)
        std::printf("     [%5.0f %5.0f %5.0f %5.0f]\n", out[r * cols], out[r * cols + 1], out[r * cols + 2], out[r * cols + 3]);
    } catch (const stepwise::NotImplemented& e) {
      std::printf("   %-14s %s\n", v.name, e.what());
      missing = e.what();
    }
  }
}

// Part 2: one large array of ints in -7 .. 7, scanned and compacted (keep x > 0).
void show_array(int n, std::string& missing) {
  stepwise::DeviceBuffer<int> in(n), out(n), count(1);
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<int>((i * 2654435761u) >> 16) % 15 - 7;
  CUDA_CHECK(cudaMemcpy(in.data(), host.data(), sizeof(int) * host.size(), cudaMemcpyHostToDevice));
  const double gb = 1e-6 * 8.0 * n;  // GB read + written by a scan or a copy, per millisecond
  std::printf("\n2. One array of %d ints (%.2f GB read + written by a scan)\n", n, 8.0 * n / 1e9);
  const double copy_ms = median_ms([&] {
    CUDA_CHECK(cudaMemcpyAsync(out.data(), in.data(), sizeof(int) * static_cast<std::size_t>(n), cudaMemcpyDeviceToDevice));
  });
  std::printf("   %-30s %8.3f ms %8.0f GB/s\n", "device-to-device copy", copy_ms, gb / copy_ms);
  const std::size_t temp_bytes = [&] {
    try {
      return cub_temp_bytes(n);
    } catch (const stepwise::NotImplemented&) {
      return std::size_t{0};
    }
  }();
  stepwise::DeviceBuffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1));
  const struct {
    const char* name;
    std::function<void()> run;
  } versions[] = {
      {"scan: three phases", [&] { scan_three_phase(in.data(), out.data(), n, nullptr); }},
      {"scan: one pass, look-back", [&] { scan_single_pass(in.data(), out.data(), n, nullptr); }},
      {"scan: CUB InclusiveSum", [&] { scan_cub(in.data(), out.data(), n, temp.data(), temp_bytes, nullptr); }},
  };
  double cub_ms = 0;
  for (const auto& v : versions) {
    try {
      const double ms = median_ms(v.run);
      if (&v == &versions[2]) cub_ms = ms;
      std::printf("   %-30s %8.3f ms %8.0f GB/s  %.2f of the copy\n", v.name, ms, gb / ms, copy_ms / ms);
    } catch (const stepwise::NotImplemented& e) {
      std::printf("   %-30s %s\n", v.name, e.what());
      missing = e.what();
    }
  }
  if (cub_ms > 0) std::printf("   (CUB's scan sets the ceiling: compare each version's ms with its %.3f ms)\n", cub_ms);
  const struct {
    const char* name;
    std::function<void()> run;
  } compactions[] = {
      {"compact x > 0: yours", [&] { compact_greater(in.data(), out.data(), count.data(), n, 0, nullptr); }},
      {"compact x > 0: CUB Select::If", [&] { compact_cub(in.data(), out.data(), count.data(), n, 0, temp.data(), temp_bytes, nullptr); }},
  };
  for (const auto& v : compactions) {
    try {
      const double ms = median_ms(v.run);
      const int kept = count.to_host()[0];
      const double bytes = 1e-6 * 4.0 * (static_cast<double>(n) + kept);
      std::printf("   %-30s %8.3f ms %8.0f GB/s  %d kept\n", v.name, ms, bytes / ms, kept);
    } catch (const stepwise::NotImplemented& e) {
      std::printf("   %-30s %s\n", v.name, e.what());
      missing = e.what();
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return stepwise::run_demo(argc, argv, help(), [&] {
    const int wanted = parse_n(argc, argv);
    std::size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const int n = static_cast<int>(std::min<std::size_t>(wanted, free_bytes / 3 / sizeof(int)));
    std::string missing;
    show_seed_table(missing);
    show_array(n, missing);
    if (!missing.empty()) throw stepwise::NotImplemented(missing);  // exit as a TODO until every step is written
  });
}
