#pragma once
// What the lesson's own files say about its steps: which STEPWISE_TODO(N) lines are left in the
// exercise, and the README's Hints.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace runner {

// The steps N whose `STEPWISE_TODO(N);` line is still in a source or header of `lesson_dir`
// (code lines only: a comment that mentions the macro does not count).
std::set<int> steps_left(const std::filesystem::path& lesson_dir);

// The steps of a lesson README, from its "### Step N" headings, in the README's order.
std::vector<int> readme_steps(const std::string& readme);

// The steps N that have a bullet of their own ("- **Step N.** ...") in the README's "## Hints"
// section, as hints() finds them; each once, in the README's order.
std::vector<int> hint_steps(const std::string& readme);

// With step 0, the bullets of a lesson README's "## Hints" section, all of them. With step N > 0,
// the step's heading ("### Step 2 — ...") and text, then "Hints:" and the step's own bullets
// ("- **Step 2.** ...") followed by those for every step ("- **All steps.** ...").
// Empty when the README has no Hints section (or one without bullets).
std::string hints(const std::string& readme, int step);

}  // namespace runner
