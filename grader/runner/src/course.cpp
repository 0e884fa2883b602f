#include "course.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

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
                             ": configure, then build it (cmake --preset default, then cmake --build build --target stepwise-course-file)");
  const nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object())
    throw std::runtime_error(file.string() + " is not valid JSON: build it again (cmake --build build --target stepwise-course-file)");
  const std::filesystem::path here = file.parent_path();
  Course course;
  course.source_dir = here / json.value("source_dir", ".");
  course.build_dir = here / json.value("build_dir", ".");
  course.cmake = json.value("cmake", course.cmake);
  course.ctest = json.value("ctest", course.ctest);
  course.ninja = json.value("ninja", course.ninja);
  course.tools = json.value("tools", std::vector<std::string>{});
  for (const std::string& track : kTracks) course.lessons_targets[track] = json.value(track + "_lessons_target", "");
  for (const nlohmann::json& entry : json.value("lessons", nlohmann::json::array())) {
    Lesson lesson;
    lesson.slug = entry.value("slug", "");
    for (const std::string& track : kTracks) lesson.built_by[track] = entry.value(track, std::vector<std::string>{});
    if (const std::string dir = entry.value("tests_dir", ""); !dir.empty()) lesson.tests_dir = here / dir;
    if (lesson.slug.size() < 3)
      throw std::runtime_error(file.string() + " names a lesson without an NN-slug name");
    course.lessons.push_back(lesson);
  }
  return course;
}

std::vector<const Lesson*> Course::lessons_of(const std::string& track) const {
  std::vector<const Lesson*> graded, all;
  for (const Lesson& lesson : lessons) {
    all.push_back(&lesson);
    if (!lesson.targets(track).empty()) graded.push_back(&lesson);
  }
  const bool any_targets = std::any_of(lessons.begin(), lessons.end(), [](const Lesson& lesson) {
    return std::any_of(kTracks.begin(), kTracks.end(), [&](const std::string& t) { return !lesson.targets(t).empty(); });
  });
  return any_targets ? graded : all;
}

std::string display_path(const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::path relative = std::filesystem::relative(path, std::filesystem::current_path(), error);
  if (error || relative.empty() || relative.string().rfind("..", 0) == 0) return path.lexically_normal().string();
  return relative.string();
}

}  // namespace runner
