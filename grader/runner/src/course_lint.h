#pragma once
// `stepwise lint`: the docs' lists of lessons against the course manifest (course.json), so that
// a lesson added there and forgotten in a doc, or left in a doc after it went, is reported.
#include <filesystem>
#include <string>
#include <vector>

namespace runner {

// The problems in the course at `source_dir`, each "file[:line]: what is wrong"; none when
//   - docs/README.md's reading-order table has one row per lesson, in order ("| NN | [slug](...)");
//   - each lesson's README starts "# Lesson NN · Title";
//   - every overview sample of `stepwise grade` in README.md and docs/grading.md ("lesson  passed"
//     and a row per lesson) lists every lesson, in order;
//   - grader/requirements.txt names only lessons of the course (its "# NN slug:" sections and
//     its "NN-slug/Suite.Test" lines; lint/requirements holds the lines to the speed checks).
std::vector<std::string> lint_course(const std::filesystem::path& source_dir);

}  // namespace runner
