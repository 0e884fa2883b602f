#pragma once
// Float steps compute in float. A kernel of a float step that does double arithmetic still gives
// float-accurate answers, so no value check can tell: `0.5` instead of `0.5f`, `exp(x)` of a
// double, `1.0 / (1.0 + k)` promote the expression to double. On most GPUs (all consumer ones)
// double runs at 1/32 to 1/64 of the float rate, and a step that asked for float arithmetic has
// not been done. This check reads the device code nvcc made from the student's files (and, for the
// kernels of a step written in a template header, from the grader's checks that instantiate it):
//
//   TEST(CpuMachineCode, FloatKernelsUseNoDoubleArithmetic) {
//     grader::expect_float_arithmetic("black_scholes_float_kernel", [] {
//       black_scholes(static_cast<const float*>(nullptr), ..., 0, Market{}, nullptr);  // n == 0
//     });
//   }
//
// The code read is the PTX that nvcc writes while compiling those files (kept beside the build, see stepwise_add_test_program in cmake/AddLesson.cmake): the GPU's instruction set
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

// The device code of one part of a test program, as its build kept it (the PTX nvcc wrote while
// compiling it: stepwise_add_test_program in cmake/AddLesson.cmake).
struct DeviceCode {
  std::string dir;                         // nvcc's --keep folder ("" where the build kept none)
  std::vector<std::string> sources;        // the .cu files compiled into it now (paths)
  std::vector<std::string> architectures;  // the virtual architectures built now ("90", "90a"; {}: not known)
  std::vector<std::string> kernels;        // the mangled names of the kernels nvcc built from them
  std::string whose;                       // how messages name it: "your files"
};

// The student's .cu files compiled into this test program, now.
DeviceCode students_device_code();
// The grader's checks compiled into this test program (the lesson's test source): the kernels it
// instantiates from the templates of the student's headers (lesson 01's vectorize_kernel<float,
// Add>), beside the grader's own kernels, which a check's regex leaves out. (A header template
// that the student's own .cu files instantiate, as lesson 08's row_kernels.cu does apply_rows,
// is in students_device_code().)
DeviceCode checks_device_code();

// First runs `steps`: the float steps' host functions on empty input (n = 0); an exercise step
// not written yet throws stepwise::NotImplemented, which passes through (the check reports TODO;
// other exceptions, e.g. no GPU, are ignored). Then fails the current check when a kernel nvcc
// built from the student's files whose demangled name matches `float_kernels` (ECMAScript regex,
// searched for in the name with its parameters) does double arithmetic, naming each one and what
// it does, or when no kernel matches. Where the device code is not there (the build did not keep
// it), the check is SKIPPED with the reason, never passed.
void expect_float_arithmetic(const std::string& float_kernels, const std::function<void()>& steps);

// The same check of the kernels of the student's template headers, as the grader's checks
// instantiate them (checks_device_code()). The regex names the student's kernels and their
// float instantiations only: the checks also hold the grader's own kernels, and a template's
// double instantiations where the step has them (lesson 01's vectorize_kernel<double, ...>):
//
//   TEST(CpuMachineCode, VectorizeKernelUsesNoDoubleArithmetic) {
//     grader::expect_header_float_arithmetic("vectorize_kernel<float, Add>", [] {
//       vectorize<float>(Target::gpu, Add{}, nullptr, nullptr, nullptr, 0);  // n == 0
//     });
//   }
void expect_header_float_arithmetic(const std::string& float_kernels, const std::function<void()>& steps);

// The same check over `code` (the two above pass students_device_code() and
// checks_device_code(); the self-tests a folder of their own).
void expect_float_arithmetic_in(const DeviceCode& code, const std::string& float_kernels,
                                const std::function<void()>& steps);

// The PTX files in `dir` that nvcc made from `sources` (paths or names of .cu files) for the
// virtual `architectures` built now, sorted. nvcc names the PTX of a file <stem>.ptx where one
// virtual architecture is built and <stem>.compute_<arch>.ptx for each where several are. Its
// --keep folder is never emptied, so it may also hold PTX that no longer belongs to the build: of
// a file the student has since renamed or removed, or of an architecture built before
// CMAKE_CUDA_ARCHITECTURES changed (<stem>.compute_80.ptx beside <stem>.ptx after "80;90" became
// "90"), with the kernels as they were then. That PTX is not listed (the counts are the largest
// over the files read, so one stale file could fail a kernel that is right now). Where the
// architectures are not known ({}), every <stem>.ptx and <stem>.compute_*.ptx is listed; where
// the one architecture's <stem>.ptx is absent, its <stem>.compute_<arch>.ptx.
std::vector<std::string> device_code_files(const std::string& dir, const std::vector<std::string>& sources,
                                           const std::vector<std::string>& architectures = {});

// The virtual architectures of a CMake CUDA_ARCHITECTURES list, ',' or ';' separated, sorted
// and without repeats: "75;90-real;90-virtual" -> {"75", "90"}, "90a-real" -> {"90a"}. {} where
// the list names none that can be told before nvcc runs ("native", "all", "all-major", "", OFF).
std::vector<std::string> virtual_architectures(const std::string& cmake_architectures);

}  // namespace grader
