#include "course.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace runner {

const Lesson* Course::find(const std::string& name) const {
  for (const Lesson& lesson : lessons) {
    const std::string number = lesson.number();
    const bool by_number = name == number || (name.size() == 1 && number == "0" + name);
    const bool by_slug = name == lesson.slug || name == lesson.slug.substr(3);
    if (by_number || by_slug) return &lesson;
  }
  return nullptr;
}

Course load_course(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in)
    throw std::runtime_error("no course file " + file.string() +
                             ": configure the build first (cmake --preset default)");
  const nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object())
    throw std::runtime_error(file.string() + " is not valid JSON: configure again (cmake --preset default)");
  const std::filesystem::path here = file.parent_path();
  Course course;
  course.source_dir = here / json.value("source_dir", ".");
  course.build_dir = here / json.value("build_dir", ".");
  course.cmake = json.value("cmake", course.cmake);
  course.ctest = json.value("ctest", course.ctest);
  course.tools = json.value("tools", std::vector<std::string>{});
  course.exercise_lessons_target = json.value("exercise_lessons_target", "");
  course.solution_lessons_target = json.value("solution_lessons_target", "");
  for (const nlohmann::json& entry : json.value("lessons", nlohmann::json::array())) {
    Lesson lesson;
    lesson.slug = entry.value("slug", "");
    lesson.exercise_targets = entry.value("exercise", std::vector<std::string>{});
    lesson.solution_targets = entry.value("solution", std::vector<std::string>{});
    if (lesson.slug.size() < 3)
      throw std::runtime_error(file.string() + " names a lesson without an NN-slug name");
    course.lessons.push_back(lesson);
  }
  return course;
}

std::string display_path(const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::path relative = std::filesystem::relative(path, std::filesystem::current_path(), error);
  if (error || relative.empty() || relative.string().rfind("..", 0) == 0) return path.lexically_normal().string();
  return relative.string();
}

}  // namespace runner
