#pragma once
// Lesson 12: compiling CUDA C++ source while the program runs, as PyCUDA's SourceModule does
// (seed 000): NVRTC turns a source string into machine code for the GPU in use, the CUDA runtime
// loads it, and the program looks its kernel up by name and launches it.
//
// Every function throws on failure: CompileError when the source does not compile,
// std::runtime_error (or stepwise::CudaError, which is one) for everything else. A failure
// leaves nothing behind: no NVRTC program, no loaded code.
#include <cuda_runtime.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rtc_handles.h"

// A GPU architecture, named by its compute capability: {9, 0} is an H100 (sm_90), {8, 6} an
// RTX 30x0 (sm_86), {7, 5} a T4 or RTX 20x0 (sm_75).
struct GpuArchitecture {
  int major = 0;
  int minor = 0;
};
inline bool operator==(GpuArchitecture a, GpuArchitecture b) { return a.major == b.major && a.minor == b.minor; }
inline bool operator!=(GpuArchitecture a, GpuArchitecture b) { return !(a == b); }
// "sm_90" for {9, 0}: the name of the machine code for that architecture.
inline std::string sm_name(GpuArchitecture a) { return "sm_" + std::to_string(a.major * 10 + a.minor); }

// Step 1: the compute capability of the GPU this thread uses (cudaGetDevice), asked of the
// device (cudaDeviceGetAttribute), never assumed.
GpuArchitecture current_architecture();

// Step 1: NVRTC's option that selects machine code for `target`: "--gpu-architecture=sm_86"
// for {8, 6}, "--gpu-architecture=sm_120" for {12, 0}.
std::string architecture_option(GpuArchitecture target);

// What compile_to_cubin throws when the source does not compile. what() holds NVRTC's log, whose
// lines read "<file name>(<line>): error: <message>".
class CompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Machine code for one architecture, as NVRTC wrote it (an ELF file, "cubin").
struct Cubin {
  std::vector<char> code;
  GpuArchitecture architecture;  // what it was compiled for
};

// Steps 1 and 3: compiles `source` with NVRTC into machine code for `target`, with `options`
// added to the architecture option (e.g. "--use_fast_math"). `file_name` names the source in
// NVRTC's messages. Needs no GPU. When the source does not compile, throws CompileError
// carrying NVRTC's whole log (step 3).
Cubin compile_to_cubin(const std::string& source, const std::string& file_name, GpuArchitecture target,
                       const std::vector<std::string>& options = {});

// A kernel of loaded code: launch it with cudaLaunchKernel(kernel.handle(), grid, block, args).
// Copies share the loaded code, which is unloaded when the last copy goes.
class Kernel {
 public:
  Kernel() = default;
  Kernel(std::shared_ptr<const LoadedLibrary> library, cudaKernel_t handle, std::string name,
         GpuArchitecture architecture)
      : library_(std::move(library)), handle_(handle), name_(std::move(name)), architecture_(architecture) {}
  cudaKernel_t handle() const { return handle_; }
  const std::string& name() const { return name_; }
  GpuArchitecture architecture() const { return architecture_; }  // what its code was compiled for

 private:
  std::shared_ptr<const LoadedLibrary> library_;
  cudaKernel_t handle_ = nullptr;
  std::string name_;
  GpuArchitecture architecture_;
};

// Step 1: loads `cubin` for the GPU in use and looks up the kernel named `kernel_name` (its
// name in the machine code: declare it extern "C" so that is the name in the source). Throws
// std::runtime_error that names both architectures when the GPU cannot run the cubin, and one
// that names the kernel when there is none of that name. A failure leaves CUDA's "last error"
// clear, so the next CUDA_CHECK_LAUNCH does not report it again.
Kernel load_kernel(const Cubin& cubin, const std::string& kernel_name);

// Step 1: compile_to_cubin for the GPU in use (file name "<kernel_name>.cu"), then load_kernel.
Kernel compile_kernel(const std::string& source, const std::string& kernel_name,
                      const std::vector<std::string>& options = {});

// Step 4: compiled kernels kept for reuse. get() compiles (compile_kernel) the first time it
// sees a source, kernel name, options and GPU architecture, and returns the kept kernel for
// every later request of the same four; any difference (one character of the source) compiles
// anew.
class KernelCache {
 public:
  Kernel get(const std::string& source, const std::string& kernel_name,
             const std::vector<std::string>& options = {});
  int compilations() const { return compilations_; }  // how many times get() compiled
  std::size_t size() const { return kernels_.size(); }

 private:
  std::map<std::string, Kernel> kernels_;  // by a key made of all four
  int compilations_ = 0;
};
