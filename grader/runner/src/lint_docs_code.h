#pragma once
// `stepwise lint --only docs-code` (was grader/lint/docs_code.cmake): code in the docs comes from
// code that compiles. A Markdown file shows a marked region (docs_regions.h) in a fenced block
// whose line above names the file and the region:
//     <!-- code: solutions/01-vector-add/vector_add.cu#launch -->
//     ```cuda
//     ...the same lines...
//     ```
// Checked, for README.md, docs/*.md and lessons/*/*.md:
//   - every marked block equals its region, both taken without their common indentation;
//   - the file and the region a marker names exist; a region is closed, not nested, and unique;
//   - every ```cuda / ```cpp / ```c++ block is marked (shell commands and output stay free text);
//   - every region in lessons/, solutions/, docs/ and common/ is shown somewhere (no stale marks).
// With `fix`, each marked block that differs is rewritten from its region instead.
#include <filesystem>
#include <string>
#include <vector>

namespace runner {

struct DocsCodeLint {
  std::vector<std::string> problems;  // each "file[:line]: what is wrong"
  std::vector<std::string> fixed;     // with fix: "fixed README.md:12 from file#region"
  int blocks = 0;                     // marked blocks found
  int documents = 0;                  // documents read
};

DocsCodeLint lint_docs_code(const std::filesystem::path& source_dir, bool fix);

}  // namespace runner
