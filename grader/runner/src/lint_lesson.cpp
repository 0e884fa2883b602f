#include "lint_lesson.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "exercise_marks.h"
#include "hints.h"

namespace runner {

namespace fs = std::filesystem;

namespace {

std::string text_of(const fs::path& file) {
  std::ostringstream text;
  text << std::ifstream(file).rdbuf();
  return text.str();
}

// One problem for each of `steps` that is not in `present`; `message` says it for a step.
template <typename Steps, typename Present, typename Message>
void report_missing(const Steps& steps, const Present& present, Message message, std::vector<std::string>& problems) {
  for (int step : steps)
    if (std::find(present.begin(), present.end(), step) == present.end()) problems.push_back(message(std::to_string(step)));
}

}  // namespace

std::vector<std::string> lint_lesson(const fs::path& source_dir, const std::string& lesson) {
  std::vector<std::string> problems;
  const std::string where = "lessons/" + lesson;
  const fs::path dir = source_dir / where;
  if (!fs::exists(dir / "README.md")) return {where + ": README.md is missing"};
  const std::string readme = text_of(dir / "README.md");
  for (const std::string& section : {std::string("## Hints"), std::string("## If you know Numba/PyCUDA")})
    if (readme.rfind(section, 0) != 0 && readme.find("\n" + section) == std::string::npos)  // no line starts so
      problems.push_back(where + "/README.md: no '" + section + "' section");

  const ExerciseMarks marks = exercise_marks(dir);
  if (marks.todo_comments.empty() || marks.stubs.empty())
    problems.push_back(where + ": the exercise has no TODO(step N) marker or no STEPWISE_TODO(N) stub");
  report_missing(marks.stubs, marks.todo_comments, [&](const std::string& n) {
    return where + ": STEPWISE_TODO(" + n + ") has no TODO(step " + n + ") comment saying what to do";
  }, problems);
  const std::vector<int> steps = readme_steps(readme);
  report_missing(marks.todo_comments, steps, [&](const std::string& n) {
    return where + ": TODO(step " + n + ") has no '### Step " + n + "' in README.md";
  }, problems);
  report_missing(steps, marks.todo_comments, [&](const std::string& n) {
    return where + "/README.md: '### Step " + n + "' has no TODO(step " + n + ") in the exercise";
  }, problems);

  // Every step has hints of its own (what `stepwise hint NN N` prints), and no hint names a step
  // the README lacks.
  const std::vector<int> hinted = hint_steps(readme);
  report_missing(steps, hinted, [&](const std::string& n) {
    return where + "/README.md: '### Step " + n + "' has no '- **Step " + n + ".**' hint in '## Hints'";
  }, problems);
  report_missing(hinted, steps, [&](const std::string& n) {
    return where + "/README.md: the hint '- **Step " + n + ".**' is for a step with no '### Step " + n + "'";
  }, problems);

  std::error_code error;
  std::vector<fs::path> solution_files;
  for (const fs::directory_entry& entry : fs::directory_iterator(source_dir / "solutions" / lesson, error))
    if (entry.is_regular_file()) solution_files.push_back(entry.path());
  std::sort(solution_files.begin(), solution_files.end());
  for (const fs::path& file : solution_files)
    if (text_of(file).find("STEPWISE_TODO(") != std::string::npos)
      problems.push_back("solutions/" + lesson + ": " + file.string() + " still has a STEPWISE_TODO");
  return problems;
}

}  // namespace runner
