#include "lint_command.h"

#include <iostream>

#include "course_lint.h"
#include "course_manifest.h"
#include "lint_docs_code.h"
#include "lint_lesson.h"
#include "lint_requirements.h"

namespace runner {

namespace {

void print(const std::vector<std::string>& problems) {
  for (const std::string& problem : problems) std::cout << problem << "\n";
}

std::string count(std::size_t problems) { return std::to_string(problems) + " problem(s)"; }

}  // namespace

int run_lint(const LintOptions& options) {
  std::size_t problems = 0;
  // Lessons named on the command line (a fixture's) are checked alone: a fixture has no docs.
  const bool all = options.only.empty();
  if ((all || options.only == "docs") && options.lessons.empty()) {
    const std::vector<std::string> found = lint_course(options.source_dir);
    print(found);
    std::cout << "course lint: " << (found.empty() ? "the docs list the lessons of course.json" : count(found.size())) << "\n";
    problems += found.size();
  }
  if (all || options.only == "lessons") {
    std::vector<std::string> lessons = options.lessons;
    if (lessons.empty())
      for (const ManifestLesson& lesson : read_manifest(options.source_dir / "course.json")) lessons.push_back(lesson.folder());
    std::vector<std::string> found;
    for (const std::string& lesson : lessons)
      for (std::string& problem : lint_lesson(options.source_dir, lesson)) found.push_back(std::move(problem));
    print(found);
    std::cout << "lint: " << lessons.size() << " lessons checked, " << (found.empty() ? "no problems" : count(found.size())) << "\n";
    problems += found.size();
  }
  if ((all || options.only == "docs-code") && options.lessons.empty()) {
    const DocsCodeLint found = lint_docs_code(options.source_dir, options.fix);
    print(found.fixed);
    print(found.problems);
    std::cout << "docs code: "
              << (found.problems.empty() ? std::to_string(found.blocks) + " marked code blocks in " + std::to_string(found.documents) +
                                               " documents match the code they show"
                                         : count(found.problems.size()))
              << "\n";
    problems += found.problems.size();
  }
  // Needs the built test programs, so only when asked for (lint/requirements).
  if (options.only == "requirements") {
    std::vector<LessonProgram> programs;
    for (const std::string& pair : options.programs) programs.push_back(lesson_program(pair));
    const std::filesystem::path file =
        options.requirements.empty() ? options.source_dir / "grader" / "requirements.txt" : options.requirements;
    const RequirementsLint found = lint_requirements(programs, file);
    print(found.problems);
    std::cout << "requirements lint: "
              << (found.problems.empty() ? std::to_string(found.speed_checks) + " speed checks, each with one requirement"
                                         : count(found.problems.size()))
              << "\n";
    problems += found.problems.size();
  }
  return problems == 0 ? 0 : 1;
}

}  // namespace runner
