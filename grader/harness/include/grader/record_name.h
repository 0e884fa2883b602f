#pragma once
// The name of a check's result record, "<NN-slug>__<Suite.Test>.json" ('/' made '_'): written by
// the test programs (grader/results.h) and read by the runner (grader/runner), so it lives here.
#include <string>

namespace grader {

// What every record of a lesson's checks starts with.
inline std::string record_prefix(const std::string& lesson) { return lesson + "__"; }

inline std::string record_file_name(const std::string& lesson, const std::string& check) {
  std::string name = record_prefix(lesson) + check;
  for (char& c : name)
    if (c == '/') c = '_';
  return name + ".json";
}

// Whether `file_name` is a record of one of `lesson`'s checks.
inline bool is_record_of(const std::string& file_name, const std::string& lesson) {
  const std::string suffix = ".json";
  return file_name.rfind(record_prefix(lesson), 0) == 0 && file_name.size() > suffix.size() &&
         file_name.compare(file_name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace grader
