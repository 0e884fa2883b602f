#pragma once
// Float steps compute in float. A kernel of a float step that does double arithmetic still gives
// float-accurate answers, so no value check can tell: `0.5` instead of `0.5f`, `exp(x)` of a
// double, `1.0 / (1.0 + k)` promote the expression to double. On most GPUs (all consumer ones)
// double runs at 1/32 to 1/64 of the float rate, and a step that asked for float arithmetic has
// not been done. This check reads the device code nvcc made from the student's files:
//
//   TEST(CpuMachineCode, FloatKernelsUseNoDoubleArithmetic) {
//     grader::expect_float_arithmetic("black_scholes_float_kernel", [] {
//       black_scholes(static_cast<const float*>(nullptr), ..., 0, Market{}, nullptr);  // n == 0
//     });
//   }
//
// The code read is the PTX that nvcc writes while compiling the student's files (kept beside the
// build, see stepwise_add_test_program in cmake/AddLesson.cmake): the GPU's instruction set
// before ptxas assembles it, in which every double operation is an instruction of type .f64 that
// becomes a DADD, DMUL, DFMA, ... (or an F2F/I2F/F2I conversion) in the machine code. It is read
// rather than the SASS because cuobjdump, which disassembles SASS, is not part of every toolkit
// (the course's own CI has none), and this check must run on any machine, with or without a GPU.
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace grader {

// One function of the device code: its double arithmetic, by instruction ("fma.f64" -> 12),
// counting the device functions it calls.
struct DeviceFunction {
  std::string mangled;
  bool kernel = false;
  std::map<std::string, int> fp64;
  std::vector<std::string> calls;  // mangled names of the functions it calls
};

// The double arithmetic in PTX text, by function. Counted: add, sub, mul, fma, mad, div, rcp,
// sqrt, rsqrt, neg, abs, min, max, copysign, set/setp/testp (comparisons) of type .f64, and every
// cvt with .f64 on either side (float <-> double, int <-> double). Not counted: ld, st, mov and
// the like of .f64 (moving bits is not arithmetic; a double argument converted to float is
// counted by its cvt). The calls of each function are resolved, so a kernel's count includes the
// device functions it calls (those nvcc did not inline).
std::map<std::string, DeviceFunction> fp64_in_ptx(const std::string& ptx);

// First runs `steps`: the float steps' host functions on empty input (n = 0); an exercise step
// not written yet throws stepwise::NotImplemented, which passes through (the check reports TODO;
// other exceptions, e.g. no GPU, are ignored). Then fails the current check when a kernel nvcc
// built from the student's files whose demangled name matches `float_kernels` (ECMAScript regex,
// searched for in the name with its parameters) does double arithmetic, naming each one and what
// it does, or when no kernel matches. Where the device code is not there (the build did not keep
// it), the check is SKIPPED with the reason, never passed.
void expect_float_arithmetic(const std::string& float_kernels, const std::function<void()>& steps);

// The same check over the PTX of `sources` kept in `dir` (expect_float_arithmetic passes
// device_code_dir() and device_code_sources(); the self-tests their own folder).
void expect_float_arithmetic_in(const std::string& dir, const std::vector<std::string>& sources,
                                const std::string& float_kernels, const std::function<void()>& steps);

// The PTX files in `dir` that nvcc made from `sources` (paths or names of the student's .cu
// files), sorted: <stem>.ptx, or <stem>.compute_<arch>.ptx where several architectures are
// built. nvcc's --keep folder is never emptied, so it may also hold the PTX of a file the student
// has since renamed or removed, with the same kernels as they were then; that PTX is not listed
// (the counts are the largest over the files read, so one stale file could fail a kernel that
// is right now).
std::vector<std::string> device_code_files(const std::string& dir, const std::vector<std::string>& sources);

// The folder where nvcc kept the PTX of the student's files ("" where the build kept none), and
// the student's .cu files compiled into this test program, now (paths). Generated for each test
// program from STEPWISE_DEVICE_CODE_DIR and STEPWISE_DEVICE_CODE_SOURCES (cmake/AddLesson.cmake).
const char* device_code_dir();
std::vector<std::string> device_code_sources();

}  // namespace grader
