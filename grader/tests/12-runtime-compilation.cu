// Grader tests for lesson 12 (runtime compilation with NVRTC: the architecture of the GPU in
// use, compile errors with their log, loading and looking up kernels, launching with argument
// arrays, a cache of compiled kernels, a polynomial specialised at run time).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "grader/grader.h"
#include "grader/machine_code.h"
#include "multiply_them.h"
#include "polynomial.h"
#include "polynomial_aot.cuh"
#include "polynomial_cpu.h"
#include "runtime_compilation.h"
#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace {

using grader::Output;
using grader::Tolerance;

// The grader's own kernel for the checks of steps 1 and 3, so that they do not depend on step 2.
// FACTOR comes from an option (-DFACTOR=...) where a check passes one.
const char* const kScaleSource = R"(
#ifndef FACTOR
#define FACTOR 2.0f
#endif
extern "C" __global__ void scale(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * FACTOR;
}
)";

// The same with a mistake on line 3: `factor` is not declared.
const char* const kBrokenSource = "extern \"C\" __global__ void scale(float* x, int n) {\n"
                                  "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                  "  if (i < n) x[i] = x[i] * factor;\n"
                                  "}\n";

// The architecture a cubin holds machine code for, read from its ELF header, not from what the
// code under test says: e_flags (at byte 48 of a 64-bit ELF file) holds the SM number, in bits
// 8-15 since ELF ABI version 8 (CUDA 12.8+: 0x5a00 for sm_90), in bits 0-7 before.
int cubin_sm(const std::vector<char>& code) {
  if (code.size() < 52 || std::memcmp(code.data(), "\x7f" "ELF", 4) != 0 || code[4] != 2) return -1;
  std::uint32_t flags = 0;
  std::memcpy(&flags, code.data() + 48, sizeof flags);
  const int abi_version = static_cast<unsigned char>(code[8]);
  return abi_version >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
}

int sm_number(GpuArchitecture a) { return a.major * 10 + a.minor; }

GpuArchitecture device_architecture() {
  int device = 0;
  cudaDeviceProp properties{};
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  return {properties.major, properties.minor};
}

// An architecture whose machine code this GPU cannot run (another major version), but which
// every NVRTC of CUDA 12 and 13 compiles for.
GpuArchitecture another_architecture() {
  return device_architecture().major == 7 ? GpuArchitecture{8, 0} : GpuArchitecture{7, 5};
}

// Runs `action`, which must throw an exception of type E; returns its message, or fails.
template <typename E, typename Action>
testing::AssertionResult throws_with(Action&& action, const std::vector<std::string>& must_mention,
                                     const char* what) {
  try {
    action();
  } catch (const stepwise::NotImplemented&) {
    throw;
  } catch (const E& e) {
    const std::string message = e.what();
    for (const std::string& part : must_mention)
      if (message.find(part) == std::string::npos)
        return testing::AssertionFailure() << what << ": the error does not mention '" << part
                                           << "'. It reads:\n" << message;
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << what << ": no error was thrown";
}

// CUDA's "last error" is clear: a failure handled inside the code under test must not show up
// again at the next launch check.
testing::AssertionResult last_error_clear() {
  const cudaError_t last = cudaGetLastError();
  if (last == cudaSuccess) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "CUDA's last error is still set (" << cudaGetErrorString(last)
                                     << "): after a failed call that you handle, call cudaGetLastError() "
                                        "to clear it, or the next CUDA_CHECK_LAUNCH reports it";
}

// Runs a `scale` kernel on random values and checks x * factor.
testing::AssertionResult scales_by(const Kernel& kernel, float factor, int n) {
  const std::vector<float> x = grader::random_floats(n, -10, 10);
  auto d_x = grader::device(x);
  float* pointer = d_x.data();
  void* arguments[] = {&pointer, &n};
  CUDA_CHECK(cudaLaunchKernel(kernel.handle(), dim3((n + 255) / 256), dim3(256), arguments));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> expected(n);
  for (int i = 0; i < n; ++i) expected[i] = x[i] * factor;
  // expected is the host's float product, correctly rounded as the device's is: the two agree bit
  // for bit, and 0.5 ulp admits nothing else (the nearest other float is 1 ulp away).
  return grader::matches(expected, d_x.to_host(), Tolerance::ulps(0.5));
}

// p(x) exactly as the kernel must compute it: Horner's rule with fused multiply-adds in float,
// each correctly rounded on the CPU as on the GPU, so the results agree bit for bit.
std::vector<double> float_horner(const std::vector<float>& c, const std::vector<float>& x) {
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    float acc = c.back();
    for (std::size_t k = c.size() - 1; k-- > 0;) acc = std::fma(acc, x[i], c[k]);
    out[i] = acc;
  }
  return out;
}

// ---- What ran (grader/trace.h) ------------------------------------------------------------------
//
// The kernels of steps 2 and 4 are compiled at run time: the trace must show a kernel that nvcc
// did not build (runtime_compiled()), none that nvcc built from the student's files (the
// ahead-of-time kernels of polynomial_aot.cuh launched instead are caught so), and no library.
// multiply_them and evaluate_polynomial launch on the default stream and return at once, on
// device arrays; multiply_them_in_out copies in, launches, copies back, and returns when done.

grader::Rules runtime_rules(const std::string& step) {
  grader::Rules rules(step);
  rules.own_kernels().runtime_compiled().on_stream(nullptr);
  return rules;
}
grader::Rules device_arrays_rules(const std::string& step) {
  grader::Rules rules = runtime_rules(step);
  rules.returns_at_once().no_host_copies();
  return rules;
}
grader::Rules in_out_rules(int n) {
  grader::Rules rules = runtime_rules("step 2 (multiply_them_in_out)");
  rules.done_when_returned().also([n](const grader::Trace& t) -> testing::AssertionResult {
    const std::uint64_t array = static_cast<std::uint64_t>(n) * sizeof(float);
    std::uint64_t in = 0, out = 0;
    for (const grader::TracedCopy& c : t.copies) {
      if (c.direction == "host to device") in += c.bytes;
      if (c.direction == "device to host") out += c.bytes;
    }
    if (in == 2 * array && out == array) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "copied " << in << " B to the GPU and " << out << " B back; drv.In and "
                                       << "drv.Out copy a and b in (" << 2 * array << " B) and dest back (" << array
                                       << " B), once each";
  });
  return rules;
}
const char* const kEvaluatePolynomial = "step 4 (evaluate_polynomial)";

// ---- step 1: the architecture, compiling, loading --------------------------------------------

TEST(CpuArchitecture, OptionNamesTheTarget) {
  EXPECT_EQ(architecture_option({8, 6}), "--gpu-architecture=sm_86");
  EXPECT_EQ(architecture_option({7, 5}), "--gpu-architecture=sm_75");
  EXPECT_EQ(architecture_option({12, 0}), "--gpu-architecture=sm_120");
}

// The check that catches a hard-coded architecture on any machine, the grader's GPU included:
// the machine code itself, not the code's own account of it, must be for each architecture
// asked for.
TEST(CpuCompile, CubinIsForTheRequestedArchitecture) {
  for (GpuArchitecture target : {GpuArchitecture{7, 5}, GpuArchitecture{8, 0}, GpuArchitecture{8, 6},
                                 GpuArchitecture{8, 9}, GpuArchitecture{9, 0}}) {
    SCOPED_TRACE("target " + sm_name(target));
    const Cubin cubin = compile_to_cubin(kScaleSource, "scale.cu", target);
    EXPECT_EQ(cubin.architecture, target) << "Cubin::architecture is not the target";
    const int sm = cubin_sm(cubin.code);
    EXPECT_EQ(sm, sm_number(target)) << "the machine code is for sm_" << sm << ", but " << sm_name(target)
                                     << " was asked for: is the architecture hard-coded instead of taken "
                                        "from the target?";
  }
}

TEST(CpuCompile, OptionsReachTheCompiler) {
  // FACTOR is defined only by the option: a dropped option makes this a compile error.
  const char* const needs_factor = "extern \"C\" __global__ void f(float* x) { x[0] = FACTOR; }\n";
  // (A CompileError here, "identifier FACTOR is undefined": the options did not reach
  // nvrtcCompileProgram.)
  const Cubin cubin = compile_to_cubin(needs_factor, "f.cu", {7, 5}, {"-DFACTOR=3.0f"});
  EXPECT_EQ(cubin_sm(cubin.code), 75);
  EXPECT_TRUE(throws_with<CompileError>([&] { compile_to_cubin(needs_factor, "f.cu", {7, 5}); }, {"f.cu"},
                                        "a source using FACTOR, compiled without -DFACTOR"));
}

// ---- step 3: compile errors -------------------------------------------------------------------

TEST(CpuCompile, ErrorCarriesTheLogWithTheLine) {
  EXPECT_TRUE(throws_with<CompileError>([] { compile_to_cubin(kBrokenSource, "broken_scale.cu", {8, 0}); },
                                        {"broken_scale.cu(3): error", "factor"},
                                        "compiling a source with an undeclared name on line 3"))
      << "a CompileError must carry NVRTC's log: nvrtcGetProgramLog";
  // The program goes on: the next compilation works.
  const Cubin cubin = compile_to_cubin(kScaleSource, "scale.cu", {8, 0});
  EXPECT_FALSE(cubin.code.empty());
}

// ---- step 1 on the GPU ------------------------------------------------------------------------

TEST(Architecture, IsTheGpuInUse) {
  EXPECT_EQ(current_architecture(), device_architecture());
}

TEST(Architecture, CompiledKernelRunsOnTheGpuInUse) {
  const Kernel kernel = compile_kernel(kScaleSource, "scale");
  const GpuArchitecture gpu = device_architecture();
  EXPECT_EQ(kernel.architecture(), gpu);
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernel.handle())));
  EXPECT_EQ(attributes.binaryVersion, sm_number(gpu))
      << "the loaded machine code is for sm_" << attributes.binaryVersion << ", the GPU is " << sm_name(gpu);
  EXPECT_TRUE(scales_by(kernel, 2.0f, 100003));
}

TEST(Architecture, CodeForAnotherArchitectureIsAClearError) {
  const GpuArchitecture other = another_architecture();
  const Cubin cubin = compile_to_cubin(kScaleSource, "scale.cu", other);
  EXPECT_TRUE(throws_with<std::runtime_error>([&] { load_kernel(cubin, "scale"); },
                                              {sm_name(other), sm_name(device_architecture())},
                                              "loading machine code for another architecture"));
  EXPECT_TRUE(last_error_clear());
}

TEST(LoadKernel, MissingNameIsAClearError) {
  // A lookup of a missing name is a failed CUDA call, which compute-sanitizer counts as an error
  // even when the code handles it well; the sanitizer's run has nothing to check here.
  if (grader::under_sanitizer()) GTEST_SKIP() << "looks up missing kernels on purpose";
  EXPECT_TRUE(throws_with<std::runtime_error>([] { compile_kernel(kScaleSource, "no_such_kernel"); },
                                              {"no_such_kernel"}, "looking up a kernel the source lacks"));
  EXPECT_TRUE(last_error_clear());
  // Without extern "C", C++ gives the kernel a longer ("mangled") name that encodes its
  // parameter types, so the plain name finds nothing.
  EXPECT_TRUE(throws_with<std::runtime_error>(
      [] { compile_kernel("__global__ void twice(float* x) { x[threadIdx.x] *= 2; }\n", "twice"); }, {"twice"},
      "looking up a kernel that is not extern \"C\""));
  EXPECT_TRUE(last_error_clear());
  // And the program goes on.
  EXPECT_TRUE(scales_by(compile_kernel(kScaleSource, "scale"), 2.0f, 1000));
}

TEST(LoadKernel, CompileErrorOnTheGpuPathToo) {
  EXPECT_TRUE(throws_with<CompileError>([] { compile_kernel(kBrokenSource, "scale"); }, {"(3): error"},
                                        "compile_kernel on a source with a mistake on line 3"));
  EXPECT_TRUE(last_error_clear());
}

// ---- step 2: multiply_them ----------------------------------------------------------------------

std::vector<double> products(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<double> p(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) p[i] = a[i] * b[i];  // the float product, rounded once
  return p;
}

TEST(MultiplyThem, InOutAtTheSeedsSizes) {
  const Kernel kernel = compile_kernel(kMultiplyThemSource, "multiply_them");
  const int large = static_cast<int>(grader::fit_in_device_memory(20000003, 3 * sizeof(float)));
  for (int n : {1, 400, 2000, 10007, large}) {
    SCOPED_TRACE("n = " + std::to_string(n) + (n == 2000 ? " (more than one block can hold)" : ""));
    const std::vector<float> a = grader::random_floats(n, -3, 3), b = grader::random_floats(n, -3, 3);
    std::vector<float> dest = grader::poisoned_host<float>(n);
    const auto call = [&] { multiply_them_in_out(kernel, dest.data(), a.data(), b.data(), n); };
    if (n == large)
      grader::expect_ran(call, in_out_rules(n));
    else
      call();
    // Exact: one correctly rounded float multiply on the host (products()) and in the kernel.
    EXPECT_TRUE(grader::matches(products(a, b), dest, Tolerance::exact()));
  }
}

TEST(MultiplyThem, DeviceArraysAtEverySize) {
  const Kernel kernel = compile_kernel(kMultiplyThemSource, "multiply_them");
  const std::vector<int> sizes = grader::standard_sizes(3 * sizeof(float));
  for (int n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<float> a = grader::random_floats(n, -3, 3), b = grader::random_floats(n, -3, 3);
    auto d_a = grader::device(a), d_b = grader::device(b);
    Output<float> dest(n);
    const auto call = [&] { multiply_them(kernel, dest.data(), d_a.data(), d_b.data(), n); };
    if (n == sizes.back())
      grader::expect_ran(call, device_arrays_rules("step 2 (multiply_them)"));
    else
      call();
    // Exact: one correctly rounded float multiply on the host (products()) and in the kernel.
    EXPECT_TRUE(grader::matches(products(a, b), dest, Tolerance::exact()));
  }
}

// n = INT_MAX (2^31 - 1), the largest n the launchers' `int n` takes: a grid rounded up as
// (n + 255) / 256 overflows int past INT_MAX - 255 (a grid of about 2^32 blocks, rejected), which
// no smaller size shows. Inputs are drawn on the GPU; 2^16 random results and the first and last
// 512 are compared with the CPU's, exactly (as at every size). On a GPU where the arrays are more
// than 3/4 of its memory, and under compute-sanitizer, the check is SKIPPED, saying so
// (grader::check_at_int_max). The call is traced as the step's largest call at every size is.
// a, b and dest take 25.8 GB.
TEST(MultiplyThem, DeviceArraysAtIntMax) {
  const Kernel kernel = compile_kernel(kMultiplyThemSource, "multiply_them");
  multiply_them(kernel, nullptr, nullptr, nullptr, 0);  // a step not written yet is TODO, on any GPU
  constexpr int n = std::numeric_limits<int>::max();
  std::optional<stepwise::DeviceBuffer<float>> a, b;
  std::optional<Output<float>> dest;
  const auto allocate = [&] {
    a.emplace(n);
    b.emplace(n);
    dest.emplace(n);
  };
  grader::check_at_int_max("n = INT_MAX", 3 * sizeof(float) * std::size_t{n}, allocate, [&] {
    grader::refill_random(a->data(), n, -3.0f, 3.0f);
    grader::refill_random(b->data(), n, -3.0f, 3.0f);
    grader::expect_ran([&] { multiply_them(kernel, dest->data(), a->data(), b->data(), n); },
                       device_arrays_rules("step 2 (multiply_them)"));
    const grader::Sample sample(n, grader::Sample::kValues, 512);
    // Exact: one correctly rounded float multiply on the host (products()) and in the kernel.
    EXPECT_TRUE(sample.matches(products(sample.of(a->data()), sample.of(b->data())), sample.of(dest->data()),
                               Tolerance::exact()))
        << grader::kIntMaxHint;
  });
}

// ---- step 4: the cache and the specialised polynomial ----------------------------------------

TEST(KernelCache, SecondRequestDoesNotRecompile) {
  KernelCache cache;
  const Kernel first = cache.get(kScaleSource, "scale");
  EXPECT_EQ(cache.compilations(), 1);
  const Kernel again = cache.get(kScaleSource, "scale");
  EXPECT_EQ(cache.compilations(), 1) << "the same source, name and options were compiled twice";
  EXPECT_EQ(again.handle(), first.handle()) << "the second request did not return the kept kernel";

  // A different constant is a different source: compiled anew, and it computes with the new one.
  const Kernel tripled = cache.get(std::string("#define FACTOR 3.0f\n") + kScaleSource, "scale");
  EXPECT_EQ(cache.compilations(), 2) << "a source with another constant was not compiled";
  EXPECT_TRUE(scales_by(tripled, 3.0f, 1000));
  // Different options too.
  const Kernel halved = cache.get(kScaleSource, "scale", {"-DFACTOR=0.5f"});
  EXPECT_EQ(cache.compilations(), 3) << "the same source with other options was not compiled";
  EXPECT_TRUE(scales_by(halved, 0.5f, 1000));
  EXPECT_TRUE(scales_by(cache.get(kScaleSource, "scale"), 2.0f, 1000));
  EXPECT_EQ(cache.compilations(), 3);
}

TEST(KernelCache, FailedCompileKeepsNothing) {
  KernelCache cache;
  EXPECT_TRUE(throws_with<CompileError>([&] { cache.get(kBrokenSource, "scale"); }, {"(3): error"},
                                        "a cached compile of a source with a mistake on line 3"));
  EXPECT_EQ(cache.size(), 0u) << "a failed compilation left an entry in the cache";
  EXPECT_TRUE(scales_by(cache.get(kScaleSource, "scale"), 2.0f, 1000));
}

TEST(Polynomial, MatchesFloatHornerBitForBit) {
  KernelCache cache;
  for (int degree : {0, 1, 8, 48}) {
    const std::vector<float> c = grader::random_floats(degree + 1, -1, 1);
    // standard_sizes() without its largest: the CPU reference of degree 48 would take seconds.
    for (int n : {0, 1, 31, 32, 33, 1000, 100017, 1000003}) {
      SCOPED_TRACE("degree " + std::to_string(degree) + ", n = " + std::to_string(n));
      const std::vector<float> x = grader::random_floats(n, -1, 1);
      auto d_x = grader::device(x);
      Output<float> out(n);
      // The largest call of degree 48 is traced (its kernel is in the cache by then).
      const auto call = [&] { evaluate_polynomial(cache, c, d_x.data(), out.data(), n); };
      if (degree == 48 && n == 1000003)
        grader::expect_ran(call, device_arrays_rules(kEvaluatePolynomial));
      else
        call();
      // Exact: the same chain of fmaf (each correctly rounded) on the same floats gives the same bits;
      // a coefficient not an exact float literal, or another order or rounding, differs in some value.
      EXPECT_TRUE(grader::matches(float_horner(c, x), out, Tolerance::exact()))
          << "each coefficient must be an exact float literal (%a), and each step fmaf(acc, v, c[k])";
    }
  }
}

// Step 4 at n = INT_MAX, as MultiplyThem.DeviceArraysAtIntMax (x and out: 17.2 GB), a polynomial of
// degree 8, traced as the step's largest call at every size is.
TEST(Polynomial, MatchesFloatHornerAtIntMax) {
  KernelCache cache;
  const std::vector<float> c = grader::random_floats(9, -1, 1);
  evaluate_polynomial(cache, c, nullptr, nullptr, 0);  // a step not written yet is TODO, on any GPU
  constexpr int n = std::numeric_limits<int>::max();
  std::optional<stepwise::DeviceBuffer<float>> x;
  std::optional<Output<float>> out;
  const auto allocate = [&] {
    x.emplace(n);
    out.emplace(n);
  };
  grader::check_at_int_max("n = INT_MAX", 2 * sizeof(float) * std::size_t{n}, allocate, [&] {
    grader::refill_random(x->data(), n, -1.0f, 1.0f);
    grader::expect_ran([&] { evaluate_polynomial(cache, c, x->data(), out->data(), n); },
                       device_arrays_rules(kEvaluatePolynomial));
    const grader::Sample sample(n, grader::Sample::kValues, 512);
    // Exact: the same chain of fmaf on the same floats, as at every size.
    EXPECT_TRUE(sample.matches(float_horner(c, sample.of(x->data())), sample.of(out->data()), Tolerance::exact()))
        << grader::kIntMaxHint;
  });
}

TEST(Polynomial, CompilesOncePerPolynomial) {
  KernelCache cache;
  const std::vector<float> c = grader::random_floats(9, -1, 1), other = grader::random_floats(9, -1, 1);
  const std::vector<float> x = grader::random_floats(1000, -1, 1);
  auto d_x = grader::device(x);
  Output<float> out(x.size());
  for (int call = 0; call < 3; ++call) evaluate_polynomial(cache, c, d_x.data(), out.data(), 1000);
  EXPECT_EQ(cache.compilations(), 1) << "three calls with the same coefficients";
  evaluate_polynomial(cache, other, d_x.data(), out.data(), 1000);
  EXPECT_EQ(cache.compilations(), 2) << "a call with other coefficients";
  // Exact: the same fmaf chain on the same floats (above).
  EXPECT_TRUE(grader::matches(float_horner(other, x), out, Tolerance::exact()));
}

// ---- The float steps compute in float (no GPU needed) ------------------------------------------
// Both steps' kernels compute in float. Horner's rule in double (double acc, fma) runs at 1/32 to
// 1/64 of the float rate on most GPUs; its values differ from fmaf's chain only in some of them,
// and on a GPU only. The machine code tells, without a GPU. The kernels are the student's source
// text: the grader compiles that text here with NVRTC (its own call, no options, as the checks
// compile these kernels) to PTX, the code NVRTC makes the cubin from, for compute_75 (the oldest
// architecture CUDA 13 builds for; double arithmetic is .f64 on every one), and
// grader::fp64_in_ptx counts its double arithmetic (grader/machine_code.h). (Step 2's product in
// double, static_cast<double>(a[i]) * b[i], leaves none: NVRTC folds the double product of two
// floats rounded back to float into the float multiply, which gives the same value.)
std::string ptx_of(const std::string& source, const std::string& file_name) {
  NvrtcProgram program(source, file_name);
  const char* options[] = {"--gpu-architecture=compute_75"};
  if (nvrtcCompileProgram(program.get(), 1, options) != NVRTC_SUCCESS) {
    std::size_t log_size = 0;
    NVRTC_CHECK(nvrtcGetProgramLogSize(program.get(), &log_size));
    std::string log(log_size, '\0');
    NVRTC_CHECK(nvrtcGetProgramLog(program.get(), &log[0]));
    throw std::runtime_error(file_name + " does not compile:\n" + log.c_str());
  }
  std::size_t size = 0;
  NVRTC_CHECK(nvrtcGetPTXSize(program.get(), &size));
  std::string ptx(size, '\0');
  NVRTC_CHECK(nvrtcGetPTX(program.get(), &ptx[0]));
  return ptx;
}

testing::AssertionResult computes_in_float(const std::string& source, const std::string& what) {
  std::ostringstream found;
  for (const auto& [name, function] : grader::fp64_in_ptx(ptx_of(source, "float_check.cu"))) {
    if (!function.kernel || function.fp64.empty()) continue;
    found << "\n  kernel `" << name << "`:";
    for (const auto& [instruction, count] : function.fp64) found << " " << count << " x " << instruction;
  }
  if (found.str().empty()) return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << what << " does double arithmetic (PTX instructions of type .f64: DADD, DMUL, DFMA or a conversion in the "
         << "machine code, at 1/32 to 1/64 of the float rate on most GPUs):" << found.str()
         << "\n  The step computes in float: a double constant (2.0 instead of 2.0f, a literal without its f), a cast "
            "to double, or a double function (fma, not fmaf) promotes a float expression to double.";
}

TEST(CpuMachineCode, RuntimeKernelsUseNoDoubleArithmetic) {
  multiply_them(Kernel{}, nullptr, nullptr, nullptr, 0);  // n == 0: a step not written yet is TODO
  EXPECT_TRUE(computes_in_float(kMultiplyThemSource, "step 2's kernel (kMultiplyThemSource)"));
  EXPECT_TRUE(computes_in_float(polynomial_source(grader::random_floats(9, -1, 1)),
                                "step 4's kernel (polynomial_source, degree 8)"));
}

// ---- speed --------------------------------------------------------------------------------------

// Large enough that the kernels, not the launch and the cache lookup, decide the times: 2^28
// floats in and out (2 GB) where they fit.
int speed_size() { return static_cast<int>(grader::fit_in_device_memory(std::size_t{1} << 28, 2 * sizeof(float))); }

// The timed call through a Workload: fresh x in [-1, 1] and a poisoned output before every run;
// afterwards a sample of the output (grader::Sample: random indices, new for every check, the
// first and the last among them) is checked bit for bit against the CPU's float Horner. The
// sample is gathered on the default stream, so work hidden on another stream is caught as not
// ready.
grader::Workload polynomial_workload(KernelCache& cache, const std::vector<float>& c, stepwise::DeviceBuffer<float>& x,
                                     stepwise::DeviceBuffer<float>& out, int n) {
  grader::Workload work{
      [&x, &out, n] {
        grader::refill_random(x.data(), n, -1.0f, 1.0f);
        grader::poison(out.data(), n);
      },
      [&cache, &c, &x, &out, n] { evaluate_polynomial(cache, c, x.data(), out.data(), n); },
      [&c, &x, &out, n]() -> testing::AssertionResult {
        const grader::Sample sample(static_cast<std::size_t>(n));
        // Exact: the same fmaf chain on the same floats (Polynomial.MatchesFloatHornerBitForBit).
        return sample.matches(float_horner(c, sample.of(x.data())), sample.of(out.data()), Tolerance::exact());
      }};
  work.what_ran = device_arrays_rules(kEvaluatePolynomial);
  return work;
}

// The same polynomial compiled by nvcc ahead of time and by NVRTC at run time: the same compiler,
// so the same speed. (Faster by more than a quarter would mean the work was not done.)
TEST(PolynomialSpeed, RuntimeCompiledMatchesAheadOfTime) {
  const int n = speed_size();
  stepwise::DeviceBuffer<float> x(n), out(n);
  KernelCache cache;
  const std::vector<float> c = fixed_polynomial_coefficients();
  const grader::Workload workload = polynomial_workload(cache, c, x, out, n);
  grader::expect_speed([&] {
    grader::refill_random(x.data(), n, -1.0f, 1.0f);
    const double aot_ms = grader::gpu_median_ms([&] { evaluate_fixed_polynomial_aot(x.data(), out.data(), n); });
    const double rtc_ms = grader::gpu_median_ms(workload);
    // The ceiling 1.25: the same source through the same compiler is the same machine code, so the
    // same time but for timing noise (a few %) and the cache lookup; 1.25 leaves room for both.
    return grader::Figure{aot_ms / rtc_ms,
                          std::to_string(rtc_ms) + " ms vs " + std::to_string(aot_ms) + " ms compiled by nvcc, degree " +
                              std::to_string(polynomial_aot::kFixedDegree),
                          1.25};
  });
  EXPECT_EQ(cache.compilations(), 1) << "the timed calls compiled the kernel again";
}

// Degree 48: the generic kernel loads a coefficient and counts its loop at every step, and
// becomes compute-bound; the specialised one does one fused multiply-add per step and stays
// close to memory speed.
TEST(PolynomialSpeed, SpecialisedBeatsGeneric) {
  constexpr int kDegree = 48;
  const int n = speed_size();
  stepwise::DeviceBuffer<float> x(n), out(n);
  KernelCache cache;
  const std::vector<float> c = grader::random_floats(kDegree + 1, -1, 1);
  auto d_c = grader::device(c);
  const grader::Workload workload = polynomial_workload(cache, c, x, out, n);
  grader::expect_speed([&] {
    grader::refill_random(x.data(), n, -1.0f, 1.0f);
    const double generic_ms =
        grader::gpu_median_ms([&] { evaluate_polynomial_generic(d_c.data(), kDegree, x.data(), out.data(), n); });
    grader::Figure figure = grader::speedup(generic_ms, grader::gpu_median_ms(workload), "the generic kernel (degree 48)");
    // The specialised kernel still reads x and writes out: no faster than moving those bytes.
    figure.ceiling = generic_ms / grader::fastest_ms_to_move(2.0 * sizeof(float) * n);
    return figure;
  });
}

}  // namespace
