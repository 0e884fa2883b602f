// broken: a compile error says only that the source does not compile, without NVRTC's log
// fails: CpuCompile.ErrorCarriesTheLogWithTheLine
// expect: the error does not mention 'broken_scale.cu\(3\): error'
// (The rest is the reference solution.)
#include "runtime_compilation.h"
#define compile_to_cubin reference_compile_to_cubin
#include "solutions/12-runtime-compilation/runtime_compilation.cu"
#undef compile_to_cubin
#include "solutions/12-runtime-compilation/kernel_cache.cu"
#include "solutions/12-runtime-compilation/multiply_them.cu"
#include "solutions/12-runtime-compilation/polynomial.cu"

Cubin compile_to_cubin(const std::string& source, const std::string& file_name, GpuArchitecture target,
                       const std::vector<std::string>& options) {
  try {
    return reference_compile_to_cubin(source, file_name, target, options);
  } catch (const CompileError&) {
    throw CompileError(file_name + " does not compile");
  }
}
