#pragma once
// A scan of a student's graded source files for code that can get round the grader from inside the
// check's own process (docs/grading.md, "Untrusted code"): code that runs before main (a
// __attribute__((constructor)), a global object built with a constructor, a namespace-scope
// initialiser that calls a function), reads or changes the grader's environment (getenv, environ,
// /proc), writes or removes files (fopen for writing, ofstream, remove, unlink, rename,
// std::filesystem writes), ends the process (exit, _exit, quick_exit, abort, std::terminate,
// kill, raise), starts programs (system, popen, fork, exec*), loads libraries (dlopen) or uses
// inline assembly (asm). It reads tokens (comments skipped, string literals kept apart), not
// regular expressions over lines, so a name in a comment or a string is not a finding.
// A finding is a flag for the instructor to read the code, not a verdict.
#include <filesystem>
#include <string>
#include <vector>

namespace runner {

struct Finding {
  std::string file;  // as given to scan_file (e.g. lessons/01-vector-add/vector_add.cu)
  int line = 0;
  std::string what;  // "ends the process (exit)"

  std::string where() const { return file + ":" + std::to_string(line); }
};

// The findings in `text`, named as `file`.
std::vector<Finding> scan_source(const std::string& text, const std::string& file);
// The findings in the file at `path`, named as `name`.
std::vector<Finding> scan_file(const std::filesystem::path& path, const std::string& name);

}  // namespace runner
