#pragma once
// The marked regions of a source file, as `stepwise lint --only docs-code` reads them. A region is
// the lines between two comment lines of their own:
//     // [docs:launch]
//     ...the lines the docs show...
//     // [docs:end]
// A region is closed, not nested, unique in its file and named in lower-case letters, digits, '-'.
#include <map>
#include <string>
#include <vector>

namespace runner {

struct MarkedRegions {
  std::vector<std::string> names;            // the closed regions, in the file's order
  std::map<std::string, std::string> texts;  // name -> its lines, as normalise_snippet gives them
};

// The lines of `text`; one more than it has "\n"s (so joined with "\n" they give `text` back).
std::vector<std::string> split_lines(const std::string& text);

// `text` as a snippet is compared: no trailing spaces, no blank lines around it, no common
// indentation (of spaces).
std::string normalise_snippet(std::string text);

// The regions of `text` (the file `file`, named so in problems: "file:line: what is wrong").
MarkedRegions read_marked_regions(const std::string& text, const std::string& file, std::vector<std::string>& problems);

}  // namespace runner
