#include "student_manifest.h"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace runner {

namespace {

using nlohmann::json;

// A member that must be a string (an array of strings); `what` ("", "lesson <slug>: ") starts the error.
std::string text(const json& object, const char* name, const std::string& what) {
  const auto found = object.find(name);
  if (found == object.end() || !found->is_string()) throw std::runtime_error(what + "\"" + name + "\" is not a string");
  return found->get<std::string>();
}

std::vector<std::string> texts(const json& object, const char* name, const std::string& what) {
  const auto found = object.find(name);
  if (found == object.end() || !found->is_array()) throw std::runtime_error(what + "\"" + name + "\" is not an array");
  std::vector<std::string> out;
  for (const json& item : *found) {
    if (!item.is_string()) throw std::runtime_error(what + "\"" + name + "\" holds a value that is not a string");
    out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

const StudentManifest::Lesson& StudentManifest::lesson(const std::string& slug) const {
  static const Lesson not_named;
  const auto found = lessons.find(slug);
  return found == lessons.end() ? not_named : found->second;
}

StudentManifest read_student_manifest(const std::filesystem::path& student_folder) {
  const std::filesystem::path file = student_folder / "manifest.json";
  std::ifstream in(file);
  if (!in) throw std::runtime_error("no student manifest " + file.string() + " (configure the class build again: --step prepare)");
  const json value = json::parse(in, nullptr, false);
  try {
    if (value.is_discarded() || !value.is_object()) throw std::runtime_error("not a JSON object");
    StudentManifest m;
    m.student = text(value, "student", "");
    m.ignored = texts(value, "ignored", "");
    m.results = text(value, "results", "");
    m.scratch = text(value, "scratch", "");
    const auto lessons = value.find("lessons");
    if (lessons == value.end() || !lessons->is_object()) throw std::runtime_error("\"lessons\" is not an object");
    for (const auto& [slug, entry] : lessons->items()) {
      const std::string what = "lesson " + slug + ": ";
      if (!entry.is_object()) throw std::runtime_error(what + "not an object");
      StudentManifest::Lesson lesson;
      const std::string state = text(entry, "state", what);
      if (state != "sent" && state != "missing")
        throw std::runtime_error(what + "\"state\" is \"" + state + "\", not \"sent\" or \"missing\"");
      lesson.sent = state == "sent";
      lesson.used = texts(entry, "used", what);
      lesson.not_sent = texts(entry, "not_sent", what);
      if (lesson.sent) {
        lesson.target = text(entry, "target", what);
        lesson.program = text(entry, "program", what);
      }
      m.lessons.emplace(slug, std::move(lesson));
    }
    return m;
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(file.string() + " is not a student manifest: " + error.what() +
                             " (configure the class build again: --step prepare)");
  }
}

}  // namespace runner
