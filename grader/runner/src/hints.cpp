#include "hints.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

namespace runner {

namespace fs = std::filesystem;

std::set<int> steps_left(const fs::path& lesson_dir) {
  static const std::regex todo_line(R"(^\s*STEPWISE_TODO\(\s*([0-9]+)\s*\))");
  std::set<int> steps;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(lesson_dir, error)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".cu" && ext != ".cpp" && ext != ".cuh" && ext != ".h") continue;
    std::ifstream in(entry.path());
    std::string line;
    std::smatch match;
    while (std::getline(in, line))
      if (std::regex_search(line, match, todo_line)) steps.insert(std::stoi(match[1]));
  }
  return steps;
}

namespace {

// The lines of the section that starts with `heading` (up to the next heading of its level or
// higher), without the heading itself.
std::vector<std::string> section(const std::string& text, const std::regex& heading, int level) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    const std::size_t hashes = line.find_first_not_of('#');
    const bool is_heading = hashes > 0 && hashes != std::string::npos && line[hashes] == ' ';
    if (inside && is_heading && static_cast<int>(hashes) <= level) break;
    if (inside) lines.push_back(line);
    if (!inside && std::regex_search(line, heading)) inside = true;
  }
  return lines;
}

// Bullets ("- ..." and their indented continuation lines), each as one string with newlines.
std::vector<std::string> bullets(const std::vector<std::string>& lines) {
  std::vector<std::string> items;
  for (const std::string& line : lines) {
    if (line.rfind("- ", 0) == 0 || line.rfind("* ", 0) == 0)
      items.push_back(line);
    else if (!items.empty() && !line.empty() && line[0] == ' ')
      items.back() += "\n" + line;
  }
  return items;
}

// The bullets of the README's "## Hints" section.
std::vector<std::string> hint_bullets(const std::string& readme) {
  return bullets(section(readme, std::regex("^## Hints"), 2));
}

}  // namespace

std::vector<int> readme_steps(const std::string& readme) {
  static const std::regex step_heading(R"(^### Step ([0-9]+)\b)");
  std::vector<int> steps;
  std::istringstream in(readme);
  std::string line;
  std::smatch match;
  while (std::getline(in, line))
    if (std::regex_search(line, match, step_heading)) steps.push_back(std::stoi(match[1]));
  return steps;
}

std::vector<int> hint_steps(const std::string& readme) {
  static const std::regex own(R"(^[-*] \*\*Step ([0-9]+)\.\*\*)");
  std::vector<int> steps;
  std::smatch match;
  for (const std::string& item : hint_bullets(readme))
    if (std::regex_search(item, match, own) && std::find(steps.begin(), steps.end(), std::stoi(match[1])) == steps.end())
      steps.push_back(std::stoi(match[1]));
  return steps;
}

std::string hints(const std::string& readme, int step) {
  const std::vector<std::string> all = hint_bullets(readme);
  if (all.empty()) return "";
  std::ostringstream out;
  if (step <= 0) {
    for (const std::string& item : all) out << item << "\n";
    return out.str();
  }
  // The step itself: its heading and what it asks, as the README's "### Step N" says it.
  const std::regex step_heading("^### Step " + std::to_string(step) + "\\b");
  std::istringstream in(readme);
  std::string line;
  while (std::getline(in, line))
    if (std::regex_search(line, step_heading)) out << line.substr(4) << "\n";
  std::vector<std::string> body = section(readme, step_heading, 3);
  while (!body.empty() && body.back().empty()) body.pop_back();
  for (const std::string& text : body) out << text << "\n";
  // Its own hints ("- **Step N.** ..."), then those for every step ("- **All steps.** ...").
  const std::regex own("^[-*] \\*\\*Step " + std::to_string(step) + "\\.\\*\\*");
  const std::regex general(R"(^[-*] \*\*All steps\.\*\*)");
  std::vector<std::string> chosen;
  for (const std::string& item : all)
    if (std::regex_search(item, own)) chosen.push_back(item);
  for (const std::string& item : all)
    if (std::regex_search(item, general)) chosen.push_back(item);
  if (!chosen.empty()) out << (body.empty() ? "" : "\n") << "Hints:\n";
  for (const std::string& item : chosen) out << item << "\n";
  return out.str();
}

}  // namespace runner
