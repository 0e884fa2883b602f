#pragma once
// What the lesson's own files say about its steps: which STEPWISE_TODO(N) lines are left in the
// exercise, and the README's Hints.
#include <filesystem>
#include <set>
#include <string>

namespace runner {

// The steps N whose `STEPWISE_TODO(N);` line is still in a source or header of `lesson_dir`
// (code lines only: a comment that mentions the macro does not count).
std::set<int> steps_left(const std::filesystem::path& lesson_dir);

// The "## Hints" section of a lesson README (its bullets), or for step > 0 the step's heading
// ("### Step 2 — ...") and the hints that name that step; all hints when none names it.
// Empty when the README has no Hints section.
std::string hints(const std::string& readme, int step);

}  // namespace runner
