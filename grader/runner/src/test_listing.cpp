#include "test_listing.h"

#include <sstream>

#include "process.h"

namespace runner {

std::vector<std::string> listed_tests(const std::string& listing) {
  std::vector<std::string> tests;
  std::istringstream lines(listing);
  std::string line, suite;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    line = line.substr(0, line.find("  #"));  // "  # GetParam() = ..." / "  # TypeParam = ..."
    while (!line.empty() && line.back() == ' ') line.pop_back();
    const bool indented = line.rfind("  ", 0) == 0;
    const std::string name = indented ? line.substr(2) : line;
    if (name.empty() || name.find(' ') != std::string::npos) continue;  // not a suite or a test
    if (!indented && name.back() == '.' && name.size() > 1) {
      suite = name.substr(0, name.size() - 1);
    } else if (indented && !suite.empty()) {
      tests.push_back(suite + "." + name);
    }
  }
  return tests;
}

int list_tests(const std::filesystem::path& program, std::string& output) {
  output.clear();
  return run_lines({program.string(), "--gtest_list_tests"}, [&](const std::string& line) { output += line + "\n"; });
}

}  // namespace runner
