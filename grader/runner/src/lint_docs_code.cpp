#include "lint_docs_code.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "docs_regions.h"

namespace runner {

namespace fs = std::filesystem;

namespace {

const char* const kFixCommand = "build/bin/stepwise lint --only docs-code --fix";

std::string text_of(const fs::path& file) {
  std::ostringstream text;
  text << std::ifstream(file, std::ios::binary).rdbuf();
  return text.str();
}

// The files under `dir` (relative to `source_dir`, sorted) whose extension is one of `extensions`.
std::vector<std::string> files_under(const fs::path& source_dir, const std::string& dir, const std::set<std::string>& extensions) {
  std::vector<std::string> files;
  std::error_code error;
  for (fs::recursive_directory_iterator it(source_dir / dir, error), end; !error && it != end; it.increment(error))
    if (it->is_regular_file() && extensions.count(it->path().extension().string()))
      files.push_back(it->path().lexically_relative(source_dir).generic_string());
  std::sort(files.begin(), files.end());
  return files;
}

// The Markdown files the lint reads: README.md and the like at the top, docs/*.md, lessons/*/*.md.
std::vector<std::string> documents_of(const fs::path& source_dir) {
  std::vector<std::string> documents;
  auto add_from = [&](const fs::path& dir) {
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir, error))
      if (entry.is_regular_file() && entry.path().extension() == ".md")
        documents.push_back(entry.path().lexically_relative(source_dir).generic_string());
  };
  add_from(source_dir);
  add_from(source_dir / "docs");
  std::error_code error;
  for (const fs::directory_entry& lesson : fs::directory_iterator(source_dir / "lessons", error))
    if (lesson.is_directory()) add_from(lesson.path());
  std::sort(documents.begin(), documents.end());
  return documents;
}

// A fenced block being read: where it starts, its indentation and the region it must show.
struct Fence {
  int start = 0;
  std::string indent;
  std::string region;  // "file#name" if the block is marked and the region exists, else empty
  std::string body;    // its lines, each ending in "\n"
};

class Walk {
 public:
  Walk(const fs::path& source_dir, bool fix, DocsCodeLint& lint) : source_dir_(source_dir), fix_(fix), lint_(lint) {}

  // Every region in the course's own code, so that one no document shows can be reported.
  void find_defined_regions() {
    for (const std::string root : {"lessons", "solutions", "docs", "common"})
      for (const std::string& file : files_under(source_dir_, root, {".cu", ".cuh", ".h", ".cpp", ".hpp"})) {
        if (text_of(source_dir_ / file).find("// [docs:") == std::string::npos) continue;
        for (const std::string& name : regions_of(file).names) defined_.push_back(file + "#" + name);
      }
  }

  void walk(const std::string& document);

  void report_unshown_regions() {
    for (const std::string& region : defined_)
      if (!used_.count(region)) lint_.problems.push_back(region + ": no document shows this region: show it, or remove its markers");
  }

 private:
  const MarkedRegions& regions_of(const std::string& file) {
    auto found = regions_.find(file);
    if (found == regions_.end())
      found = regions_.emplace(file, read_marked_regions(text_of(source_dir_ / file), file, lint_.problems)).first;
    return found->second;
  }

  void problem(const std::string& document, int line, const std::string& what) {
    lint_.problems.push_back(document + ":" + std::to_string(line) + ": " + what);
  }

  // The region a code marker names, if it exists; else empty, and a problem.
  std::string region_named(const std::string& document, int line, const std::string& marker);
  // A block has ended: compares it with its region, or with `fix_` rewrites its body.
  void end_fence(const std::string& document, Fence& fence);

  fs::path source_dir_;
  bool fix_;
  DocsCodeLint& lint_;
  std::map<std::string, MarkedRegions> regions_;  // by file, each read once
  std::vector<std::string> defined_;              // "file#name", in the course's code
  std::set<std::string> used_;                    // "file#name", shown by a document
};

std::string Walk::region_named(const std::string& document, int line, const std::string& marker) {
  static const std::regex reference("^([^#]+)#([^#]+)$");
  std::smatch match;
  if (!std::regex_match(marker, match, reference)) {
    problem(document, line, "'" + marker + "' is not path/to/file#region");
    return "";
  }
  const std::string file = match[1], name = match[2];
  if (!fs::is_regular_file(source_dir_ / file)) {
    problem(document, line, file + " does not exist");
    return "";
  }
  if (!regions_of(file).texts.count(name)) {
    problem(document, line, file + " has no region '" + name + "' (mark it with // [docs:" + name + "] ... // [docs:end])");
    return "";
  }
  used_.insert(marker);
  return marker;
}

void Walk::end_fence(const std::string& document, Fence& fence) {
  if (fence.region.empty()) return;
  ++lint_.blocks;
  const std::string file = fence.region.substr(0, fence.region.find('#'));
  const std::string& expected = regions_of(file).texts.at(fence.region.substr(file.size() + 1));
  if (normalise_snippet(fence.body) == expected) return;
  if (fix_) {
    // The region's lines, at the block's indentation (blank lines stay empty), replace the body.
    fence.body.clear();
    for (const std::string& line : split_lines(expected)) fence.body += (line.empty() ? "" : fence.indent + line) + "\n";
    lint_.fixed.push_back("fixed " + document + ":" + std::to_string(fence.start) + " from " + fence.region);
    return;
  }
  std::string quoted;
  for (const std::string& line : split_lines(expected)) quoted += "\n      " + line;
  problem(document, fence.start, "this block differs from " + fence.region + ", which reads:" + quoted + "\n    (" + kFixCommand +
                                     " rewrites such blocks from the code)");
}

void Walk::walk(const std::string& document) {
  static const std::regex code_marker(R"(^[ ]*<!-- code: ([^ ]*) -->[ ]*$)");
  static const std::regex fence_open("^([ ]*)```([^ `]*)[ \t]*$");
  static const std::regex code_language(R"(^(cuda|cpp|c\+\+|cu|c|cxx|h)$)");
  const std::string content = text_of(source_dir_ / document);
  std::string output;  // the document again; with fix_, marked blocks from their regions
  std::string marker;  // the reference on the line above, if that line was a code marker
  int marker_line = 0;
  int line_number = 0;
  bool in_fence = false;
  Fence fence;
  for (const std::string& line : split_lines(content)) {
    ++line_number;
    std::smatch match;
    if (in_fence) {
      const std::string rest = line.compare(0, fence.indent.size(), fence.indent) == 0 ? line.substr(fence.indent.size()) : "";
      if (rest.compare(0, 3, "```") != 0 || rest.find_first_not_of(" \t", 3) != std::string::npos) {
        fence.body += line + "\n";
        continue;
      }
      in_fence = false;
      end_fence(document, fence);
      output += fence.body + line + "\n";
      continue;
    }
    output += line + "\n";
    if (std::regex_match(line, match, code_marker)) {
      if (!marker.empty()) problem(document, marker_line, "the code marker is not followed by a fenced code block");
      marker = match[1];
      marker_line = line_number;
    } else if (std::regex_match(line, match, fence_open)) {
      in_fence = true;
      fence = Fence{line_number, match[1], "", ""};
      const std::string language = match[2];
      if (!marker.empty())
        fence.region = region_named(document, marker_line, marker);
      else if (std::regex_match(language, code_language))
        problem(document, line_number, "a " + language +
                                           " block without a code marker: show compiled code, named on the line above as "
                                           "<!-- code: path/to/file.cu#region -->");
      marker.clear();
    } else if (!marker.empty()) {
      problem(document, marker_line, "the code marker is not followed by a fenced code block");
      marker.clear();
    }
  }
  if (in_fence) {
    problem(document, fence.start, "the code block is never closed");
  } else if (fix_) {
    output.pop_back();  // the "\n" after the last line, which split_lines gave as one more line
    if (output != content) std::ofstream(source_dir_ / document, std::ios::binary) << output;
  }
}

}  // namespace

DocsCodeLint lint_docs_code(const fs::path& source_dir, bool fix) {
  DocsCodeLint lint;
  Walk walk(source_dir, fix, lint);
  walk.find_defined_regions();
  const std::vector<std::string> documents = documents_of(source_dir);
  for (const std::string& document : documents) walk.walk(document);
  walk.report_unshown_regions();
  lint.documents = static_cast<int>(documents.size());
  return lint;
}

}  // namespace runner
