#pragma once
// `stepwise lint`'s checks of one lesson's own files (was grader/lint/lint.cmake):
//   - lessons/<lesson>/README.md has "## Hints" and "## If you know Numba/PyCUDA" sections and a
//     "### Step N" heading for every step the exercise marks, and no step the exercise lacks;
//   - every "### Step N" has a "- **Step N.** ..." hint bullet in "## Hints" (a bullet of every
//     step is "- **All steps.** ..."), and no hint bullet names a step the README lacks;
//   - the exercise marks its steps with TODO(step N) comments and STEPWISE_TODO(N) stubs;
//   - solutions/<lesson> holds no STEPWISE_TODO.
#include <filesystem>
#include <string>
#include <vector>

namespace runner {

// The problems of `lesson` ("03-mandelbrot") in the course at `source_dir`, each "where: what".
std::vector<std::string> lint_lesson(const std::filesystem::path& source_dir, const std::string& lesson);

}  // namespace runner
