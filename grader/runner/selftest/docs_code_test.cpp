// stepwise lint --only docs-code on grader/selftest/docs-code-fixture (lint/docs-code-rejects-
// stale-docs runs the command there): every problem it must report, and --fix on a copy of it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "docs_regions.h"
#include "lint_docs_code.h"

using namespace runner;
namespace fs = std::filesystem;

namespace {

TEST(DocsCode, ASnippetIsComparedWithoutItsIndentationAndBlankLinesAround) {
  EXPECT_EQ(normalise_snippet("\n    if (i < n) {  \n\n      x();\n    }\n\n"), "if (i < n) {\n\n  x();\n}");
}

TEST(DocsCode, EveryStaleBlockAndMarkerOfTheFixtureIsReported) {
  const DocsCodeLint lint = lint_docs_code(DOCS_CODE_FIXTURE, false);
  const std::string readme = "lessons/99-stale/README.md:";
  const std::vector<std::string> expected = {
      "lessons/99-stale/stale.cu: region 'unclosed' has no // [docs:end]",
      readme + "18: this block differs from lessons/99-stale/stale.cu#signature, which reads:\n"
               "      void scale_array(const float* x, float factor, float* out, int n);\n"
               "    (build/bin/stepwise lint --only docs-code --fix rewrites such blocks from the code)",
      readme + "24: lessons/99-stale/gone.cu does not exist",
      readme + "31: lessons/99-stale/stale.cu has no region 'launch' (mark it with // [docs:launch] ... // [docs:end])",
      readme + "38: a cuda block without a code marker: show compiled code, named on the line above as "
               "<!-- code: path/to/file.cu#region -->",
      readme + "42: the code marker is not followed by a fenced code block",
      "lessons/99-stale/stale.cu#orphan: no document shows this region: show it, or remove its markers"};
  EXPECT_EQ(lint.problems, expected);
  EXPECT_EQ(lint.blocks, 2);
  EXPECT_EQ(lint.documents, 1);
}

TEST(DocsCode, FixRewritesAStaleBlockFromItsRegion) {
  const fs::path copy = fs::temp_directory_path() / ("docs-code-fix-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(copy);
  fs::copy(DOCS_CODE_FIXTURE, copy, fs::copy_options::recursive);
  const DocsCodeLint fixed = lint_docs_code(copy, true);
  EXPECT_EQ(fixed.fixed, std::vector<std::string>{"fixed lessons/99-stale/README.md:18 from lessons/99-stale/stale.cu#signature"});
  std::ostringstream readme;
  readme << std::ifstream(copy / "lessons/99-stale/README.md").rdbuf();
  EXPECT_NE(readme.str().find("```cuda\nvoid scale_array(const float* x, float factor, float* out, int n);\n```\n"), std::string::npos);
  for (const std::string& problem : lint_docs_code(copy, false).problems) EXPECT_EQ(problem.find("differs"), std::string::npos) << problem;
  fs::remove_all(copy);
}

}  // namespace
