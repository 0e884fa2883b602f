#include "exercise_marks.h"

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace runner {

namespace fs = std::filesystem;

namespace {

void collect(const std::string& text, const std::regex& mark, std::set<int>& steps) {
  for (std::sregex_iterator it(text.begin(), text.end(), mark), end; it != end; ++it) steps.insert(std::stoi((*it)[1]));
}

}  // namespace

ExerciseMarks exercise_marks(const fs::path& lesson_dir) {
  static const std::regex todo_comment(R"(TODO\(step ([0-9]+)\))");
  static const std::regex stub(R"(STEPWISE_TODO\(([0-9]+)\))");
  ExerciseMarks marks;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(lesson_dir, error)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cu" && ext != ".cpp" && ext != ".h" && ext != ".cuh")) continue;
    std::ostringstream text;
    text << std::ifstream(entry.path()).rdbuf();
    collect(text.str(), todo_comment, marks.todo_comments);
    collect(text.str(), stub, marks.stubs);
  }
  return marks;
}

}  // namespace runner
