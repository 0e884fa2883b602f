#include "course_manifest.h"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace runner {

std::vector<ManifestLesson> read_manifest(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("no course manifest " + file.string());
  const nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object() || !json.contains("lessons") || !json["lessons"].is_array())
    throw std::runtime_error(file.string() + " is not JSON with a \"lessons\" array");
  std::vector<ManifestLesson> lessons;
  for (const nlohmann::json& entry : json["lessons"]) {
    ManifestLesson lesson;
    lesson.number = entry.value("number", "");
    lesson.slug = entry.value("slug", "");
    lesson.title = entry.value("title", "");
    lesson.tracks = entry.value("tracks", std::vector<std::string>{});
    if (lesson.number.size() != 2 || lesson.slug.empty() || lesson.title.empty())
      throw std::runtime_error(file.string() + ": lesson " + std::to_string(lessons.size()) +
                               " needs a two-digit \"number\", a \"slug\" and a \"title\"");
    lessons.push_back(lesson);
  }
  return lessons;
}

}  // namespace runner
