#pragma once
// The steps a lesson's exercise code marks, as the lint reads them: a `TODO(step N)` comment says
// what to write, a `STEPWISE_TODO(N)` stub stands where it goes (anywhere in the text: the lint
// holds every mention to a step; hints.h's steps_left counts only the stubs still on a code line).
#include <filesystem>
#include <set>

namespace runner {

struct ExerciseMarks {
  std::set<int> todo_comments;  // N of every "TODO(step N)"
  std::set<int> stubs;          // N of every "STEPWISE_TODO(N)"
};

// The marks in the sources and headers (.cu, .cpp, .h, .cuh) directly in `lesson_dir`.
ExerciseMarks exercise_marks(const std::filesystem::path& lesson_dir);

}  // namespace runner
