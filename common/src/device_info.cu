#include "stepwise/device_info.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>

namespace stepwise {
namespace {

// An empty kernel compiled like every other kernel of this build: if the CUDA runtime finds no
// code for it that this GPU can run, it finds none for the lessons' kernels either.
__global__ void probe_kernel() {}

std::string rebuild_fix(int major, int minor) {
  return "reconfigure in a fresh build folder with -DCMAKE_CUDA_ARCHITECTURES=" +
         std::to_string(major * 10 + minor) + " (or =native) and rebuild";
}

}  // namespace

const char* built_architectures() { return STEPWISE_CUDA_ARCHITECTURES; }

int machine_code_for(const std::string& architectures, int major, int minor) {
  std::stringstream list(architectures);
  std::string entry;
  int best = 0;
  while (std::getline(list, entry, ';')) {
    if (entry.find("-virtual") != std::string::npos) continue;
    const int number = std::atoi(entry.c_str());
    // "90a": machine code with the architecture's own instructions runs on that version alone.
    const std::size_t digits = entry.find_first_not_of("0123456789");
    const bool own_version_only = digits != std::string::npos && entry[digits] == 'a';
    if (number / 10 == major && (own_version_only ? number % 10 == minor : number % 10 <= minor))
      best = std::max(best, number);
  }
  return best;
}

GpuStatus gpu_status() {
  GpuStatus status;
  int count = 0;
  const cudaError_t count_err = cudaGetDeviceCount(&count);
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  if (driver == 0) {
    status.summary = "no NVIDIA driver found, so no GPU can be used here";
    status.fix = "GPU checks need an NVIDIA GPU and its driver: nvidia-smi should list the GPU";
    cudaGetLastError();
    return status;
  }
  if (count_err == cudaErrorInsufficientDriver) {
    status.summary = "the NVIDIA driver supports CUDA " + std::to_string(driver / 1000) + "." +
                     std::to_string(driver % 1000 / 10) + ", older than this build's CUDA runtime " +
                     std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
    status.fix = "update the NVIDIA driver, or build with a CUDA toolkit the driver supports";
    status.present = true;  // there is a GPU: checks must fail with this fix, not be skipped
    return status;
  }
  if (count_err != cudaSuccess || count == 0) {
    status.summary = std::string("no CUDA GPU found (") +
                     (count_err != cudaSuccess ? cudaGetErrorString(count_err) : "0 devices") + ")";
    status.fix = "GPU checks need an NVIDIA GPU and driver: nvidia-smi should list the GPU; "
                 "check CUDA_VISIBLE_DEVICES";
    cudaGetLastError();  // clear the error so later calls do not report it again
    return status;
  }
  status.present = true;
  cudaDeviceGetAttribute(&status.major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&status.minor, cudaDevAttrComputeCapabilityMinor, 0);
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) == cudaSuccess) status.name = properties.name;
  const std::string cc = std::to_string(status.major) + "." + std::to_string(status.minor);
  const std::string built = built_architectures();

  // Machine code for this GPU runs without asking the driver. Asking (the probe kernel's
  // attributes) starts this process's CUDA context, about 0.2 s that the driver spends on one
  // process at a time: a program that never uses the GPU itself (the grader's compute-sanitizer
  // checks, which start the tool) would pay it for nothing, and delay every other program starting.
  if (const int sass = machine_code_for(built, status.major, status.minor)) {
    status.can_run = true;
    status.summary = "runs this build's machine code (sm_" + std::to_string(sass) + ") on compute capability " + cc;
    return status;
  }
  cudaFuncAttributes attributes{};
  const cudaError_t probe_err = cudaFuncGetAttributes(&attributes, probe_kernel);
  if (probe_err == cudaErrorUnsupportedPtxVersion) {
    status.summary = "this build's PTX is newer than the NVIDIA driver can compile";
    status.fix = "update the NVIDIA driver, or " + rebuild_fix(status.major, status.minor);
    cudaGetLastError();
    return status;
  }
  if (probe_err != cudaSuccess) {
    status.summary = "this build (CUDA architectures " + built +
                     ") holds no code that a GPU of compute capability " + cc + " can run";
    status.fix = rebuild_fix(status.major, status.minor);
    cudaGetLastError();
    return status;
  }
  status.can_run = true;
  status.summary = "runs through PTX: the driver compiles this build's compute_" +
                   std::to_string(attributes.ptxVersion) + " PTX for compute capability " + cc +
                   " when a program starts (slower start, none of the newer GPU's own "
                   "instructions; -DCMAKE_CUDA_ARCHITECTURES=native builds machine code for it)";
  return status;
}

}  // namespace stepwise
