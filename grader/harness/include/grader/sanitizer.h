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

// The tool of a sanitizer check's inner run ("memcheck", "racecheck", "synccheck"; its
// STEPWISE_UNDER_SANITIZER holds the name), "" outside one. racecheck and synccheck look only at
// shared memory, barriers and warp synchronisation, so a check whose kernels are all a library's
// (CUB's, cuBLAS's) has nothing of the student's for them to find and may skip itself under those
// two, after a first call that says TODO while its step is; memcheck still runs it (the arguments
// a student passes can make a library's kernel read or write out of bounds).
std::string sanitizer_tool();
bool under_race_or_sync_check();  // sanitizer_tool() is racecheck or synccheck

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
