#include "docs_regions.h"

#include <algorithm>
#include <regex>

namespace runner {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) lines.push_back(text.substr(start, end - start));
  lines.push_back(text.substr(start));  // after the last "\n": "" for a text that ends a line
  return lines;
}

std::string normalise_snippet(std::string text) {
  std::vector<std::string> lines = split_lines(text);
  for (std::string& line : lines) line.erase(line.find_last_not_of(" \t") + 1);
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  const auto first = std::find_if(lines.begin(), lines.end(), [](const std::string& line) { return !line.empty(); });
  lines.erase(lines.begin(), first);
  // The common indentation: the fewest leading spaces of a line that is not empty.
  std::size_t indent = std::string::npos;
  for (const std::string& line : lines)
    if (!line.empty()) indent = std::min(indent, std::min(line.find_first_not_of(' '), line.size()));
  text.clear();
  for (std::size_t i = 0; i < lines.size(); ++i)
    text += (i ? "\n" : "") + (lines[i].empty() ? lines[i] : lines[i].substr(indent));
  return text;
}

MarkedRegions read_marked_regions(const std::string& text, const std::string& file, std::vector<std::string>& problems) {
  static const std::regex marker(R"(^[ \t]*// \[docs:([^ ]*)\][ \t]*$)");
  static const std::regex region_name("^[a-z0-9][a-z0-9-]*$");
  MarkedRegions regions;
  std::string open;  // the region being read, if any
  std::string body;
  int line_number = 0;
  for (const std::string& line : split_lines(text)) {
    const std::string at = file + ":" + std::to_string(++line_number) + ": ";
    std::smatch match;
    if (std::regex_match(line, match, marker)) {
      const std::string name = match[1];
      const bool known = std::find(regions.names.begin(), regions.names.end(), name) != regions.names.end();
      if (name == "end" && open.empty()) {
        problems.push_back(at + "// [docs:end] without a region to end");
      } else if (name == "end") {
        regions.names.push_back(open);
        regions.texts[open] = normalise_snippet(body);
        open.clear();
      } else if (!open.empty()) {
        problems.push_back(at + "[docs:" + name + "] starts inside [docs:" + open + "]: regions do not nest");
      } else if (!std::regex_match(name, region_name)) {
        problems.push_back(at + "region name '" + name + "': use lower-case letters, digits and '-'");
      } else if (known) {
        problems.push_back(at + "region '" + name + "' is marked twice");
      } else {
        open = name;
        body.clear();
      }
    } else if (line.find("// [docs:") != std::string::npos) {
      problems.push_back(at + "a // [docs:...] marker must be a comment line of its own");
    } else if (!open.empty()) {
      body += line + "\n";
    }
  }
  if (!open.empty()) problems.push_back(file + ": region '" + open + "' has no // [docs:end]");
  return regions;
}

}  // namespace runner
