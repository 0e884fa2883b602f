#pragma once
// Sanitizers as graded checks. For each compute-sanitizer tool a lesson grades (memcheck for
// every lesson; racecheck and synccheck where it uses shared memory), the test program gets a
// check Sanitizer.<Tool> that runs the program's own GPU correctness checks again under
//   compute-sanitizer --tool <tool>
// on small sizes (grader::under_sanitizer()). It passes when the tool reports no error, fails
// with the first error's kind, kernel and file:line, is TODO while the exercise is, and is
// skipped when compute-sanitizer is not installed.
#include <string>

namespace grader {

// Registers the Sanitizer.* checks for the tools in identity's sanitizers(). Called by main()
// before the checks run or are listed.
void register_sanitizer_checks();

// What a compute-sanitizer run printed, read: the number of errors it reported and the first
// error in one line ("Invalid __global__ write of size 4 bytes at add(...) in vector_add.cu:12");
// racecheck's warnings too (hazards it reports as warnings, such as warp-synchronous shared
// memory code without __syncwarp()), which fail the check as errors do.
struct SanitizerReport {
  int errors = 0;
  std::string first_error;
  int warnings = 0;
  std::string first_warning;
};
SanitizerReport read_sanitizer_output(const std::string& output);

}  // namespace grader
