// Lesson 01 demo: add two vectors on the GPU and on the CPU, and see where the time goes.
//   lesson01-demo [n]        n: how many floats (default 16777216)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "stepwise/buffers.h"
#include "stepwise/demo.h"
#include "stepwise/event_timer.h"
#include "stepwise/host_timer.h"
#include "vector_add.h"
// Angle brackets, because a quoted include would find this folder's vectorize.cuh first even
// when the solution's demo is built; the build puts the right folder first on the search path.
#include <vectorize.cuh>

struct Add {
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};

int main(int argc, char** argv) {
  const int default_n = 1 << 24;
  const std::string help = stepwise::help_text(
      "usage: lesson01-demo [n]", {{"n", "how many floats to add, 1 to 268435456", std::to_string(default_n)}});
  return stepwise::run_demo(argc, argv, help, [&] {
    const std::vector<std::string> args = stepwise::positional_arguments(argc, argv, 1);
    const int n = args.empty() ? default_n : static_cast<int>(stepwise::parse_integer(args[0], "n", 1, 1 << 28));
    std::vector<float> a(n), b(n), gpu_out(n), cpu_out(n);
    for (int i = 0; i < n; ++i) {
      a[i] = std::sin(0.001f * i);
      b[i] = std::cos(0.002f * i);
    }

    stepwise::DeviceBuffer<float> d_a(n), d_b(n), d_out(n);
    stepwise::EventTimer timer;
    timer.start();
    d_a.copy_from_host(a);
    d_b.copy_from_host(b);
    const float copy_in_ms = timer.stop();

    vector_add(d_a.data(), d_b.data(), d_out.data(), n);  // warm-up: the first launch loads the module
    timer.start();
    vector_add(d_a.data(), d_b.data(), d_out.data(), n);
    const float kernel_ms = timer.stop();
    timer.start();
    vector_add_grid_stride(d_a.data(), d_b.data(), d_out.data(), n);
    const float stride_ms = timer.stop();

    timer.start();
    gpu_out = d_out.to_host();
    const float copy_out_ms = timer.stop();

    const double cpu_ms = stepwise::host_ms([&] { vectorize(Target::cpu, Add{}, a.data(), b.data(), cpu_out.data(), n); });

    float worst = 0;
    for (int i = 0; i < n; ++i) worst = std::max(worst, std::fabs(gpu_out[i] - cpu_out[i]));
    const double gbs = 3.0 * sizeof(float) * n / (kernel_ms * 1e6);

    std::printf("vector add of %d floats (%.1f MB per array)\n", n, n * 4 / 1e6);
    std::printf("  copy a and b to the GPU   %9.3f ms\n", copy_in_ms);
    std::printf("  kernel, one thread each   %9.3f ms  (%.0f GB/s)\n", kernel_ms, gbs);
    std::printf("  kernel, grid-stride       %9.3f ms\n", stride_ms);
    std::printf("  copy the sum back         %9.3f ms\n", copy_out_ms);
    std::printf("  GPU total with copies     %9.3f ms\n", copy_in_ms + kernel_ms + copy_out_ms);
    std::printf("  one CPU thread            %9.3f ms\n", cpu_ms);
    std::printf("largest difference GPU vs CPU: %g\n", worst);
    std::printf("The kernel is %.0fx faster than the CPU, but the copies take %.0fx as long as the kernel:\n"
                "for a single add, moving the data costs more than the work. Keep data on the GPU.\n",
                cpu_ms / kernel_ms, (copy_in_ms + copy_out_ms) / kernel_ms);
  });
}
