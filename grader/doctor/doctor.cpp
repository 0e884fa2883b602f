// stepwise-doctor: which driver, runtime, GPU and build this is, and whether this build's code
// can run on this GPU. Exit status: 0 it can, 1 it cannot (the fix is printed), 77 no GPU.
#include <cuda_runtime.h>

#include <cstdio>

#include "stepwise/device_info.h"

namespace {

void print_version(const char* what, int version) {
  std::printf("  %-16s %d.%d\n", what, version / 1000, version % 1000 / 10);
}

}  // namespace

int main() {
  std::printf("Stepwise CUDA doctor\n");
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  if (driver > 0) print_version("CUDA driver", driver);
  else std::printf("  %-16s none found\n", "CUDA driver");
  print_version("CUDA runtime", runtime);
  std::printf("  %-16s CUDA architectures %s\n", "this build", stepwise::built_architectures());

  const stepwise::GpuStatus status = stepwise::gpu_status();
  if (status.present) {
    cudaDeviceProp properties{};
    cudaGetDeviceProperties(&properties, 0);
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    std::printf("  %-16s %s, compute capability %d.%d, %d SMs, L2 %d MiB, memory %.1f GiB (%.1f free)\n",
                "GPU 0", properties.name, status.major, status.minor, properties.multiProcessorCount,
                properties.l2CacheSize >> 20, total_bytes / 1073741824.0, free_bytes / 1073741824.0);
  }
  if (!status.present) {
    std::printf("no GPU: %s\n  %s\n", status.summary.c_str(), status.fix.c_str());
    return 77;
  }
  if (!status.can_run) {
    std::printf("PROBLEM: %s\n  fix: %s\n", status.summary.c_str(), status.fix.c_str());
    return 1;
  }
  std::printf("OK: %s\n", status.summary.c_str());
  return 0;
}
