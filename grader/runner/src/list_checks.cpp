#include "list_checks.h"

#include <iostream>

#include "grader/check_kind.h"
#include "replace_file.h"
#include "test_listing.h"

namespace runner {

std::string check_line(const std::string& check) {
  const grader::CheckKind kind = grader::check_kind(check);
  std::string labels;
  for (const std::string& label : grader::check_labels(kind)) labels += (labels.empty() ? "" : ",") + label;
  return check + " " + grader::check_kind_name(kind) + " " + labels;
}

std::string check_lines(const std::string& listing) {
  std::string lines;
  for (const std::string& check : listed_tests(listing)) lines += check_line(check) + "\n";
  return lines;
}

int run_check_kinds(const std::vector<std::string>& checks, const std::string& prefix) {
  std::string lines;
  for (const std::string& check : checks)
    lines += check_line(check.rfind(prefix, 0) == 0 ? check.substr(prefix.size()) : check) + "\n";
  std::cout << lines << std::flush;
  return 0;
}

int run_list_checks(const std::filesystem::path& program, const std::filesystem::path& output) {
  std::string listing;
  const int status = list_tests(program, listing);
  if (status != 0) {
    std::cerr << "stepwise list-checks: " << program.string() << " --gtest_list_tests failed (exit status " << status << ")"
              << (listing.empty() ? "\n" : ":\n" + listing);
    return 1;
  }
  const std::string failed = replace_file(output, check_lines(listing));
  if (!failed.empty()) {
    std::cerr << "stepwise list-checks: " << failed << "\n";
    return 1;
  }
  return 0;
}

}  // namespace runner
