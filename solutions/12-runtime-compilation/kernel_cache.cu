// Lesson 12 reference solution, step 4: one compilation per distinct request.
#include <string>
#include <vector>

#include "runtime_compilation.h"

namespace {

// Everything that changes the machine code, joined with a separator no C++ source contains
// (a NUL), so that two different requests never make the same key.
std::string cache_key(const std::string& source, const std::string& kernel_name,
                      const std::vector<std::string>& options, GpuArchitecture architecture) {
  std::string key = sm_name(architecture);
  key += '\0';
  key += kernel_name;
  for (const std::string& option : options) {
    key += '\0';
    key += option;
  }
  key += '\0';
  key += '\0';
  key += source;
  return key;
}

}  // namespace

Kernel KernelCache::get(const std::string& source, const std::string& kernel_name,
                        const std::vector<std::string>& options) {
  std::string key = cache_key(source, kernel_name, options, current_architecture());
  const auto found = kernels_.find(key);
  if (found != kernels_.end()) return found->second;
  Kernel kernel = compile_kernel(source, kernel_name, options);  // throws: nothing is kept
  ++compilations_;
  kernels_.emplace(std::move(key), kernel);
  return kernel;
}
