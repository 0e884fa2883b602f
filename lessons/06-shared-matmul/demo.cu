// Lesson 06 demo: the seed's 1600 x 1600 product and a large one, four ways, with time, GFLOP/s,
// the fraction of cuBLAS each reaches, and the error against a double-precision CPU reference.
//   lesson06-demo [--size N] [--shape M N K]
// Default: the seed's n = 1600, then 4096 (smaller if the GPU's free memory is short).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "matmul_cpu.h"
#include "shared_matmul.h"
#include "stepwise/buffers.h"
#include "stepwise/demo.h"
#include "stepwise/event_timer.h"
#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace {

struct Shape {
  int m, n, k;
};

using MatmulFunction = void (*)(const float*, const float*, float*, int, int, int);

struct Method {
  const char* name;
  MatmulFunction run;
};

std::string help() {
  return stepwise::help_text(
      "usage: lesson06-demo [--size N] [--shape M N K]",
      {{"--size N", "an N x N x N product, 1 to 16384; may be given again",
        "1600 then 4096, smaller where the GPU's free memory is short"},
       {"--shape M N K", "an M x K times K x N product, each 1 to 16384; may be given again",
        "none, only the --size products"}});
}

std::vector<Shape> parse_shapes(int argc, char** argv) {
  std::vector<Shape> shapes;
  stepwise::Flags flags(argc, argv, help());
  auto dimension = [](const std::string& text, const char* what) {
    return static_cast<int>(stepwise::parse_integer(text, what, 1, 16384));
  };
  while (flags.next()) {
    if (flags.is("--size")) {
      const int n = dimension(flags.values(1)[0], "--size");
      shapes.push_back({n, n, n});
    } else if (flags.is("--shape")) {
      const std::vector<std::string> v = flags.values(3);
      shapes.push_back({dimension(v[0], "M"), dimension(v[1], "N"), dimension(v[2], "K")});
    } else {
      flags.unknown();
    }
  }
  if (shapes.empty()) shapes = {{1600, 1600, 1600}, {4096, 4096, 4096}};
  return shapes;
}

// The largest square size up to `n` whose three matrices fit in 80% of the free device memory.
int fit_square(int n) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  while (n > 256 && 3.0 * sizeof(float) * n * n > 0.8 * free_bytes) n /= 2;
  return n;
}

// The median of `runs` timed calls, after one untimed call (module loading, the cuBLAS handle).
float median_ms(const Method& method, const float* a, const float* b, float* c, Shape s, int runs) {
  method.run(a, b, c, s.m, s.n, s.k);
  std::vector<float> times;
  for (int r = 0; r < runs; ++r)
    times.push_back(stepwise::time_gpu_ms([&] { method.run(a, b, c, s.m, s.n, s.k); }));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// The relative Frobenius error of `sampled` rows of C against the CPU's rows in double.
double relative_error(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c,
                      Shape s, const std::vector<int>& rows) {
  double error = 0, norm = 0;
  for (int row : rows) {
    const std::vector<double> exact = cpu_matmul_rows(a, b, s.n, s.k, row, 1);
    for (int j = 0; j < s.n; ++j) {
      const double d = c[static_cast<std::size_t>(row) * s.n + j] - exact[j];
      error += d * d;
      norm += exact[j] * exact[j];
    }
  }
  return norm > 0 ? std::sqrt(error / norm) : std::sqrt(error);
}

void run_shape(Shape s, const std::vector<Method>& methods) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> a(static_cast<std::size_t>(s.m) * s.k), b(static_cast<std::size_t>(s.k) * s.n);
  for (float& x : a) x = uniform(rng);
  for (float& x : b) x = uniform(rng);
  auto d_a = stepwise::DeviceBuffer<float>::from_host(a), d_b = stepwise::DeviceBuffer<float>::from_host(b);
  stepwise::DeviceBuffer<float> d_c(static_cast<std::size_t>(s.m) * s.n);

  // Up to 32 rows spread over C are checked against the CPU (all of C would take minutes at 4096).
  std::vector<int> rows;
  for (int i = 0; i < std::min(s.m, 32); ++i) rows.push_back(static_cast<int>(static_cast<long long>(i) * s.m / std::min(s.m, 32)));

  const double flops = 2.0 * s.m * s.n * s.k;
  const int runs = flops > 1e11 ? 5 : 11;
  std::printf("\nC (%d x %d) = A (%d x %d) * B (%d x %d), float32, median of %d runs\n", s.m, s.n, s.m, s.k, s.k,
              s.n, runs);
  std::printf("  %-26s %10s %10s %12s %12s\n", "method", "ms", "GFLOP/s", "of cuBLAS", "rel. error");

  std::vector<float> ms(methods.size(), -1.0f);
  std::vector<double> errors(methods.size(), 0.0);
  std::vector<std::string> missing(methods.size());
  for (std::size_t i = 0; i < methods.size(); ++i) {
    try {
      ms[i] = median_ms(methods[i], d_a.data(), d_b.data(), d_c.data(), s, runs);
      errors[i] = relative_error(a, b, d_c.to_host(), s, rows);
    } catch (const stepwise::NotImplemented& e) {
      missing[i] = e.what();
    }
  }
  const float cublas_ms = ms.back();
  for (std::size_t i = 0; i < methods.size(); ++i) {
    if (ms[i] < 0) {
      std::printf("  %-26s %s\n", methods[i].name, missing[i].c_str());
      continue;
    }
    char fraction[32] = "-";
    if (cublas_ms > 0) std::snprintf(fraction, sizeof fraction, "%.1f%%", 100.0 * cublas_ms / ms[i]);
    std::printf("  %-26s %10.3f %10.0f %12s %12.1e\n", methods[i].name, ms[i], flops / (ms[i] * 1e6), fraction,
                errors[i]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return stepwise::run_demo(argc, argv, help(), [&] {
    std::vector<Shape> shapes = parse_shapes(argc, argv);
    for (Shape& s : shapes)
      if (s.m == s.n && s.n == s.k) s.m = s.n = s.k = fit_square(s.n);
    // cuBLAS last: the other rows are given as a fraction of it.
    const std::vector<Method> methods = {{"1. naive (global memory)", matmul_naive},
                                         {"2. tiled (shared memory)", matmul_tiled},
                                         {"4. register-blocked", matmul_register_blocked},
                                         {"3. cuBLAS SGEMM (FP32)", matmul_cublas}};
    for (const Shape& s : shapes) run_shape(s, methods);
    std::printf("\nError: relative Frobenius error of sampled rows of C against the CPU in double.\n");
  });
}
