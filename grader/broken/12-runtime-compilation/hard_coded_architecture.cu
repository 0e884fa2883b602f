// broken: compiles for sm_90 (its author's H100) whatever the target, and says it compiled for the target
// fails: CpuCompile.CubinIsForTheRequestedArchitecture
// expect: the machine code is for sm_90, but sm_75 was asked for
// On an H100 every kernel still loads and runs; the grader reads the architecture out of the
// machine code itself. (The rest is the reference solution.)
#include "runtime_compilation.h"
#define compile_to_cubin reference_compile_to_cubin
#include "solutions/12-runtime-compilation/runtime_compilation.cu"
#undef compile_to_cubin
#include "solutions/12-runtime-compilation/kernel_cache.cu"
#include "solutions/12-runtime-compilation/multiply_them.cu"
#include "solutions/12-runtime-compilation/polynomial.cu"

Cubin compile_to_cubin(const std::string& source, const std::string& file_name, GpuArchitecture target,
                       const std::vector<std::string>& options) {
  Cubin cubin = reference_compile_to_cubin(source, file_name, GpuArchitecture{9, 0}, options);
  cubin.architecture = target;
  return cubin;
}
