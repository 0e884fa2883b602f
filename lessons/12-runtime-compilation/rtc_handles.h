#pragma once
// Owners for the two handles runtime compilation creates, so that neither leaks when an error
// (a compile error, a missing kernel) leaves a function early:
//   NvrtcProgram   an NVRTC program (nvrtcCreateProgram ... nvrtcDestroyProgram)
//   LoadedLibrary  compiled code loaded onto the GPU (cudaLibraryLoadData ... cudaLibraryUnload)
// and NVRTC_CHECK, CUDA_CHECK's twin for NVRTC calls.
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "stepwise/check.h"

namespace stepwise {

[[noreturn]] inline void throw_nvrtc_error(nvrtcResult result, const char* call, const char* file, int line) {
  throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                           nvrtcGetErrorString(result));
}

}  // namespace stepwise

#define NVRTC_CHECK(call)                                                        \
  do {                                                                           \
    const nvrtcResult stepwise_nvrtc_ = (call);                                  \
    if (stepwise_nvrtc_ != NVRTC_SUCCESS)                                        \
      ::stepwise::throw_nvrtc_error(stepwise_nvrtc_, #call, __FILE__, __LINE__); \
  } while (0)

// One NVRTC program: the source text and, after nvrtcCompileProgram, its log and its code.
class NvrtcProgram {
 public:
  // `file_name` is the name NVRTC's messages give the source, e.g. "polynomial.cu".
  NvrtcProgram(const std::string& source, const std::string& file_name) {
    NVRTC_CHECK(nvrtcCreateProgram(&program_, source.c_str(), file_name.c_str(), 0, nullptr, nullptr));
  }
  ~NvrtcProgram() { nvrtcDestroyProgram(&program_); }
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;
  nvrtcProgram get() const { return program_; }

 private:
  nvrtcProgram program_ = nullptr;
};

// Compiled code (a cubin) loaded for the GPU; unloaded when the last owner lets go.
class LoadedLibrary {
 public:
  explicit LoadedLibrary(const void* code) {
    CUDA_CHECK(cudaLibraryLoadData(&library_, code, nullptr, nullptr, 0, nullptr, nullptr, 0));
  }
  ~LoadedLibrary() { cudaLibraryUnload(library_); }
  LoadedLibrary(const LoadedLibrary&) = delete;
  LoadedLibrary& operator=(const LoadedLibrary&) = delete;
  cudaLibrary_t get() const { return library_; }

 private:
  cudaLibrary_t library_ = nullptr;
};
