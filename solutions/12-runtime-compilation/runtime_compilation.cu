// Lesson 12 reference solution: compile with NVRTC, load with the runtime's library calls.
#include "runtime_compilation.h"

#include <string>
#include <vector>

#include "stepwise/check.h"

namespace {

// Machine code runs on GPUs of its own major version whose minor version is at least its own:
// sm_80 code runs on an sm_86 GPU, sm_86 code not on sm_80, sm_80 code not on sm_90.
bool can_run(GpuArchitecture code, GpuArchitecture gpu) {
  return code.major == gpu.major && code.minor <= gpu.minor;
}

// A failed runtime call also becomes CUDA's "last error", which the next cudaGetLastError
// (CUDA_CHECK_LAUNCH) would report as if the next launch had failed. Read it to clear it.
void clear_last_error() { (void)cudaGetLastError(); }

}  // namespace

// Step 1: ask the device, never assume it.
GpuArchitecture current_architecture() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  GpuArchitecture architecture;
  CUDA_CHECK(cudaDeviceGetAttribute(&architecture.major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&architecture.minor, cudaDevAttrComputeCapabilityMinor, device));
  return architecture;
}

std::string architecture_option(GpuArchitecture target) { return "--gpu-architecture=" + sm_name(target); }

// Steps 1 and 3. The NvrtcProgram owns the program: the CompileError thrown below destroys it.
Cubin compile_to_cubin(const std::string& source, const std::string& file_name, GpuArchitecture target,
                       const std::vector<std::string>& options) {
  NvrtcProgram program(source, file_name);
  std::vector<std::string> all_options = {architecture_option(target)};
  all_options.insert(all_options.end(), options.begin(), options.end());
  std::vector<const char*> option_pointers;
  for (const std::string& option : all_options) option_pointers.push_back(option.c_str());

  const nvrtcResult result =
      nvrtcCompileProgram(program.get(), static_cast<int>(option_pointers.size()), option_pointers.data());
  if (result != NVRTC_SUCCESS) {
    // Step 3: the log says what is wrong and where ("file.cu(3): error: ..."); pass it on whole.
    std::size_t log_size = 0;
    NVRTC_CHECK(nvrtcGetProgramLogSize(program.get(), &log_size));
    std::string log(log_size, '\0');
    NVRTC_CHECK(nvrtcGetProgramLog(program.get(), &log[0]));
    throw CompileError(file_name + " does not compile for " + sm_name(target) + " (" +
                       nvrtcGetErrorString(result) + "):\n" + log.c_str());
  }

  Cubin cubin;
  cubin.architecture = target;
  std::size_t size = 0;
  NVRTC_CHECK(nvrtcGetCUBINSize(program.get(), &size));
  cubin.code.resize(size);
  NVRTC_CHECK(nvrtcGetCUBIN(program.get(), cubin.code.data()));
  return cubin;
}

// Step 1. The library is owned from the moment it is loaded, so a missing kernel unloads it.
Kernel load_kernel(const Cubin& cubin, const std::string& kernel_name) {
  const GpuArchitecture gpu = current_architecture();
  if (!can_run(cubin.architecture, gpu))
    throw std::runtime_error("the code for '" + kernel_name + "' was compiled for " + sm_name(cubin.architecture) +
                             ", which this GPU (" + sm_name(gpu) + ") cannot run: compile it for " +
                             sm_name(gpu) + ", the architecture current_architecture() reports");
  auto library = std::make_shared<const LoadedLibrary>(cubin.code.data());

  cudaKernel_t handle = nullptr;
  const cudaError_t found = cudaLibraryGetKernel(&handle, library->get(), kernel_name.c_str());
  if (found != cudaSuccess) {
    clear_last_error();
    throw std::runtime_error("no kernel named '" + kernel_name + "' in the compiled code (" +
                             cudaGetErrorString(found) +
                             "): check the spelling, and declare it extern \"C\" so that C++ does not "
                             "change its name");
  }
  // Loading may wait until the first launch (lazy loading); asking for the kernel's attributes
  // makes it happen now, so any problem shows up here rather than at a launch.
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(handle)));
  return Kernel(std::move(library), handle, kernel_name, cubin.architecture);
}

Kernel compile_kernel(const std::string& source, const std::string& kernel_name,
                      const std::vector<std::string>& options) {
  return load_kernel(compile_to_cubin(source, kernel_name + ".cu", current_architecture(), options), kernel_name);
}
