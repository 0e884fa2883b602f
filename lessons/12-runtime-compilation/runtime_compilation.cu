// Lesson 12: compiling kernel source at run time. Read README.md first: each TODO(step N) below
// is "Step N" there.
#include "runtime_compilation.h"

#include <string>
#include <vector>

#include "stepwise/check.h"
#include "stepwise/todo.h"

namespace {

// Machine code runs on GPUs of its own major version whose minor version is at least its own:
// sm_80 code runs on an sm_86 GPU, sm_86 code not on sm_80, sm_80 code not on sm_90.
bool can_run(GpuArchitecture code, GpuArchitecture gpu) {
  return code.major == gpu.major && code.minor <= gpu.minor;
}

// Called by compile_to_cubin when nvrtcCompileProgram did not return NVRTC_SUCCESS.
[[noreturn]] void throw_compile_error(const NvrtcProgram& program, const std::string& file_name,
                                      GpuArchitecture target, nvrtcResult result) {
  // TODO(step 3): read NVRTC's log: nvrtcGetProgramLogSize(program.get(), &size), a std::string
  // of that size, nvrtcGetProgramLog(program.get(), &log[0]) (both in NVRTC_CHECK). Throw
  // CompileError with a first line naming file_name, sm_name(target) and
  // nvrtcGetErrorString(result), then the whole log. Delete the line below when you are done.
  (void)program, (void)file_name, (void)target, (void)result;
  STEPWISE_TODO(3);
}

}  // namespace

GpuArchitecture current_architecture() {
  // TODO(step 1): cudaGetDevice, then cudaDeviceGetAttribute with
  // cudaDevAttrComputeCapabilityMajor and cudaDevAttrComputeCapabilityMinor, each in
  // CUDA_CHECK. Delete the line below.
  STEPWISE_TODO(1);
}

std::string architecture_option(GpuArchitecture target) {
  // TODO(step 1): "--gpu-architecture=" followed by sm_name(target). Delete the line below.
  (void)target;
  STEPWISE_TODO(1);
}

Cubin compile_to_cubin(const std::string& source, const std::string& file_name, GpuArchitecture target,
                       const std::vector<std::string>& options) {
  // TODO(step 1): make an NvrtcProgram(source, file_name). Build the list of options:
  // architecture_option(target) first, then `options`; nvrtcCompileProgram wants them as an
  // array of const char* (a std::vector<const char*> of each string's c_str()). Compile with
  // nvrtcCompileProgram(program.get(), count, pointers); if it does not return NVRTC_SUCCESS,
  // call throw_compile_error(program, file_name, target, result) (step 3). Otherwise get the
  // machine code: nvrtcGetCUBINSize, then nvrtcGetCUBIN into a Cubin's `code` (sized first),
  // set its `architecture` to target, and return it. Delete the line below.
  (void)source, (void)file_name, (void)target, (void)options, (void)throw_compile_error;
  STEPWISE_TODO(1);
}

Kernel load_kernel(const Cubin& cubin, const std::string& kernel_name) {
  // TODO(step 1): if !can_run(cubin.architecture, current_architecture()), throw
  // std::runtime_error naming both (sm_name). Load the code as
  //   auto library = std::make_shared<const LoadedLibrary>(cubin.code.data());
  // then cudaLibraryGetKernel(&handle, library->get(), kernel_name.c_str()). If that does not
  // return cudaSuccess, call cudaGetLastError() (it clears the error) and throw
  // std::runtime_error naming kernel_name and suggesting extern "C". Then
  // cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(handle)) in CUDA_CHECK,
  // which makes CUDA load the code now, and return
  // Kernel(std::move(library), handle, kernel_name, cubin.architecture). Delete the line below.
  (void)can_run, (void)cubin, (void)kernel_name;
  STEPWISE_TODO(1);
}

Kernel compile_kernel(const std::string& source, const std::string& kernel_name,
                      const std::vector<std::string>& options) {
  return load_kernel(compile_to_cubin(source, kernel_name + ".cu", current_architecture(), options), kernel_name);
}
