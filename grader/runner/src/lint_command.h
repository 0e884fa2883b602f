#pragma once
// `stepwise lint`: the course's static checks, run as tests (lint/static, lint/course-docs,
// lint/docs-code and the fixtures' lint/*rejects*): the docs' lists of lessons against
// course.json (course_lint.h), each lesson's own files (lint_lesson.h), the code blocks in the
// docs against the code they quote (lint_docs_code.h), and, asked for alone, the speed checks
// against the requirements file (lint_requirements.h).
#include <filesystem>
#include <string>
#include <vector>

namespace runner {

struct LintOptions {
  std::filesystem::path source_dir;
  std::string only;                  // "docs", "lessons", "docs-code", "requirements", or empty for all but requirements
  bool fix = false;                  // rewrite stale code blocks in the docs from their regions
  std::vector<std::string> lessons;  // lessons to check (then only them); empty: course.json's
  std::vector<std::string> programs;  // requirements: <lesson>=<test program>, each
  std::filesystem::path requirements;  // requirements: the file (default: grader/requirements.txt)
};

// Prints each problem on a line of its own and a summary line per part; 1 if there is a problem.
int run_lint(const LintOptions& options);

}  // namespace runner
