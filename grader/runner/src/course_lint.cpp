#include "course_lint.h"

#include <algorithm>
#include <fstream>
#include <regex>

#include "course_manifest.h"

namespace fs = std::filesystem;

namespace runner {
namespace {

struct Mention {
  int line;
  std::string folder;  // "03-mandelbrot"
};

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// A list in `doc` (at `where`: the doc, or a line of it) that must name exactly the course's
// lessons, in order.
void compare(const std::string& doc, const std::string& where, const std::vector<Mention>& found, const std::vector<std::string>& lessons,
             std::vector<std::string>& problems) {
  std::vector<std::string> named;
  for (const Mention& m : found) {
    named.push_back(m.folder);
    if (!contains(lessons, m.folder))
      problems.push_back(doc + ":" + std::to_string(m.line) + ": " + m.folder + " is not a lesson of course.json");
  }
  for (const std::string& lesson : lessons)
    if (!contains(named, lesson)) problems.push_back(where + ": no row for lesson " + lesson + " (course.json lists it)");
  if (std::is_permutation(named.begin(), named.end(), lessons.begin(), lessons.end()) && named != lessons)
    problems.push_back(where + ": the lessons are not in course.json's order");
}

void lint_reading_order(const fs::path& source, const std::vector<std::string>& lessons, std::vector<std::string>& problems) {
  static const std::regex row(R"(^\| (\d\d) \| \[([^\]]+)\]\(\.\./lessons/([^/)]+)/README\.md\) \|)");
  const std::vector<std::string> lines = lines_of(source / "docs/README.md");
  std::vector<Mention> found;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_search(lines[i], m, row)) continue;
    found.push_back({static_cast<int>(i + 1), m[3]});
    if (m[1].str() + "-" + m[2].str() != m[3].str())
      problems.push_back("docs/README.md:" + std::to_string(i + 1) + ": the row's number and name do not make its folder " + m[3].str());
  }
  compare("docs/README.md", "docs/README.md", found, lessons, problems);
}

// Every block that starts with the overview's heading "lesson   passed" and runs to a blank line.
void lint_samples(const fs::path& source, const std::string& doc, const std::vector<std::string>& lessons,
                  std::vector<std::string>& problems) {
  static const std::regex heading(R"(^lesson +passed$)");
  const std::vector<std::string> lines = lines_of(source / doc);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!std::regex_match(lines[i], heading)) continue;
    const int at = static_cast<int>(i + 1);
    std::vector<Mention> found;
    for (++i; i < lines.size() && !lines[i].empty() && lines[i].rfind("```", 0) != 0; ++i)
      found.push_back({static_cast<int>(i + 1), lines[i].substr(0, lines[i].find(' '))});
    compare(doc, doc + ":" + std::to_string(at) + " (a sample of stepwise grade)", found, lessons, problems);
  }
}

void lint_requirements(const fs::path& source, const std::vector<std::string>& lessons, std::vector<std::string>& problems) {
  static const std::regex section(R"(^# (\d\d) ([a-z0-9-]+):)");
  static const std::regex requirement(R"(^(\d\d-[a-z0-9-]+)/)");
  const std::vector<std::string> lines = lines_of(source / "grader/requirements.txt");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    std::string folder;
    if (std::regex_search(lines[i], m, section)) folder = m[1].str() + "-" + m[2].str();
    else if (std::regex_search(lines[i], m, requirement)) folder = m[1];
    if (!folder.empty() && !contains(lessons, folder))
      problems.push_back("grader/requirements.txt:" + std::to_string(i + 1) + ": " + folder + " is not a lesson of course.json");
  }
}

void lint_titles(const fs::path& source, const std::vector<ManifestLesson>& manifest, std::vector<std::string>& problems) {
  for (const ManifestLesson& lesson : manifest) {
    const std::string readme = "lessons/" + lesson.folder() + "/README.md";
    const std::vector<std::string> lines = lines_of(source / readme);
    const std::string expected = "# Lesson " + lesson.number + " \u00b7 " + lesson.title;
    if (lines.empty() || lines.front() != expected)
      problems.push_back(readme + ":1: the first line is not '" + expected + "' (course.json's title)");
  }
}

}  // namespace

std::vector<std::string> lint_course(const fs::path& source_dir) {
  const std::vector<ManifestLesson> manifest = read_manifest(source_dir / "course.json");
  std::vector<std::string> lessons;
  for (const ManifestLesson& lesson : manifest) lessons.push_back(lesson.folder());
  std::vector<std::string> problems;
  lint_reading_order(source_dir, lessons, problems);
  lint_titles(source_dir, manifest, problems);
  lint_samples(source_dir, "README.md", lessons, problems);
  lint_samples(source_dir, "docs/grading.md", lessons, problems);
  lint_requirements(source_dir, lessons, problems);
  return problems;
}

}  // namespace runner
