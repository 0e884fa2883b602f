#pragma once
// Building one lesson's targets on their own, so that a lesson that does not compile is that
// lesson's failure and every other lesson is still graded.
#include <string>
#include <vector>

#include "course.h"

namespace runner {

struct BuildResult {
  bool ok = false;
  std::string location;     // "lessons/03-mandelbrot/mandelbrot.cu:24" of the first error
  std::string first_error;  // "lessons/03-mandelbrot/mandelbrot.cu:24: error: expected a \";\""
  std::string log;          // everything the build printed
};

// cmake --build <build> --target <targets...> --parallel N (with Ninja: ninja -C <build> -j N
// <targets...>, course.h), its output kept, not printed.
// keep_going: past a target that fails, build every other one it can (make -k, ninja -k 0).
BuildResult build_targets(const Course& course, const std::vector<std::string>& targets, bool keep_going = false);

// The first compiler or linker error in a build log, as "file:line: error: message" with the
// file relative to `source_dir` (GCC's file:line:col: and nvcc's file(line): both understood).
// Sets location to "file:line". Both empty when the log holds no recognisable error.
void find_first_error(const std::string& log, const std::string& source_dir, std::string& location,
                      std::string& first_error);

}  // namespace runner
