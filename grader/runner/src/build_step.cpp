#include "build_step.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <thread>

#include "process.h"

namespace runner {

void find_first_error(const std::string& log, const std::string& source_dir, std::string& location,
                      std::string& first_error) {
  // GCC/Clang: file:line:col: error: ...   nvcc: file(line): error: ...
  static const std::regex gcc(R"(^(.+?):([0-9]+):(?:[0-9]+:)? (?:fatal )?error: (.*)$)");
  static const std::regex nvcc(R"(^(.+?)\(([0-9]+)\): (?:catastrophic )?error(?: #[0-9A-Z-]+)?: (.*)$)");
  static const std::regex linker(R"(undefined reference to .*|multiple definition of .*)");
  const std::string prefix = source_dir.empty() || source_dir.back() == '/' ? source_dir : source_dir + "/";
  std::istringstream lines(log);
  std::string line, fallback;
  std::smatch match;
  while (std::getline(lines, line)) {
    if (std::regex_match(line, match, gcc) || std::regex_match(line, match, nvcc)) {
      std::string file = match[1];
      if (!prefix.empty() && file.rfind(prefix, 0) == 0) file = file.substr(prefix.size());
      location = file + ":" + match[2].str();
      first_error = location + ": error: " + match[3].str();
      return;
    }
    if (fallback.empty() && std::regex_search(line, match, linker)) fallback = "link error: " + match[0].str();
  }
  location = fallback.empty() ? "" : "the link step";
  first_error = fallback;
}

BuildResult build_targets(const Course& course, const std::vector<std::string>& targets, bool keep_going) {
  const std::string jobs = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  std::error_code error;
  const bool ninja = std::filesystem::exists(course.build_dir / "build.ninja", error);
  std::vector<std::string> args;
  if (ninja && !course.ninja.empty()) {  // Ninja itself (it runs CMake again when the build needs it)
    args = {course.ninja, "-C", course.build_dir.string(), "-j", jobs};
    if (keep_going) args.insert(args.end(), {"-k", "0"});
    args.insert(args.end(), targets.begin(), targets.end());
  } else {
    args = {course.cmake, "--build", course.build_dir.string(), "--target"};
    args.insert(args.end(), targets.begin(), targets.end());
    args.insert(args.end(), {"--parallel", jobs});
    if (keep_going) args.insert(args.end(), {"--", "-k"});
    if (keep_going && ninja) args.push_back("0");  // make -k; ninja -k 0
  }
  BuildResult result;
  result.ok = run_lines(args, [&](const std::string& line) { result.log += line + "\n"; }) == 0;
  if (!result.ok) find_first_error(result.log, course.source_dir.lexically_normal().string(), result.location, result.first_error);
  return result;
}

}  // namespace runner
