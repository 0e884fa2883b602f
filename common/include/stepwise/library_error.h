#pragma once
// The exception of a failed call into a CUDA library (cuRAND, ...), for that library's CHECK macro
// (lesson 09's CURAND_CHECK):
//
//   throw_library_error("curandCreateGenerator(&g, type)", __FILE__, __LINE__, "CURAND_STATUS_...");
//
// The message is built out of line (common/src/library_error.cpp), so a file that checks its calls
// needs neither <stdexcept> nor <string>: a third of a second of each compile of a small lesson file.
namespace stepwise {

// Throws std::runtime_error("<call> failed at <file>:<line>: <status>"), `status` being the
// library's name for the status the call returned.
[[noreturn]] void throw_library_error(const char* call, const char* file, int line, const char* status);

}  // namespace stepwise
