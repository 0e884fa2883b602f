#pragma once
// `stepwise lint --only requirements`: one name per speed check, both ways. Every speed check (a
// GoogleTest check of kind speed, grader::check_kind: a suite ending in "Speed") has a line
// "<NN-slug>/<Suite>.<Test> <minimum> <meaning>" in the requirements file, and every line there
// names a speed check that a lesson's test program holds.
#include <filesystem>
#include <string>
#include <vector>

namespace runner {

struct LessonProgram {
  std::string lesson;             // "01-vector-add"
  std::filesystem::path program;  // its test program, listed with --gtest_list_tests
};

struct RequirementsLint {
  std::vector<std::string> problems;
  std::size_t speed_checks = 0;
};

// "01-vector-add=build/bin/lesson01-tests-solution" -> {lesson, program}; throws on another form.
LessonProgram lesson_program(const std::string& pair);

// The checks of `listing` (GoogleTest's --gtest_list_tests output) whose kind is speed, as
// "<lesson>/<Suite>.<Test>".
std::vector<std::string> speed_checks_listed(const std::string& lesson, const std::string& listing);

// The keys of a requirements file's text: the first word of each line, comments (#...) left out.
std::vector<std::string> requirement_keys(const std::string& text);

// The lint itself: lists each program's checks and reads `requirements`.
RequirementsLint lint_requirements(const std::vector<LessonProgram>& programs, const std::filesystem::path& requirements);

}  // namespace runner
