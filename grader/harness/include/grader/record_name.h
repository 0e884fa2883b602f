#pragma once
// The name of a check's result record, "<NN-slug>__<Suite.Test>.json" ('/' made '_'): written by
// the test programs (grader/results.h) and read by the runner (grader/runner), so it lives here.
#include <string>

namespace grader {

inline std::string record_file_name(const std::string& lesson, const std::string& check) {
  std::string name = lesson + "__" + check;
  for (char& c : name)
    if (c == '/') c = '_';
  return name + ".json";
}

}  // namespace grader
