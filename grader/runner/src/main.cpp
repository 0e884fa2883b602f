// stepwise: the student's grading run.
//   stepwise grade [LESSON...]   build each lesson, run its checks, print the overview and next:
//   stepwise next                what to do now (from the last grading run)
//   stepwise hint LESSON [STEP]  the README's hints (for one step)
//   stepwise watch [LESSON]      regrade a lesson each time one of its files is saved
//   stepwise table               every check of the last run, one row each
//   stepwise outcome             exit status of the last run only (the grade workflow's last step)
//   stepwise lint [SOURCE_DIR]   the course's static checks: the docs' lists of lessons against
//                                course.json, each lesson's steps and hints, the code blocks in
//                                the docs against the code they quote (lint_command.h)
//   stepwise class CLASS_DIR     an instructor's run: grade every student of a class into a
//                                gradebook (class_grading.h); class-check runs one check of it,
//                                list-checks lists a lesson's checks for it (list_checks.h)
// For the build (internal): check-kinds says what kind each check named is (list_checks.h),
// check-filter prints the GoogleTest filter of the correctness or the speed checks (grader/check_kind.h),
// write-json writes a JSON file of the facts CMake gives it (write_json.h).
// Exit status of grade, next and outcome: 0 when no check failed and none is TODO (checks skipped
// for want of a GPU do not count), 1 otherwise; 2 when grading itself could not run.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include "build_step.h"
#include "check_run.h"
#include "class_check.h"
#include "class_grading.h"
#include "course.h"
#include "grader/check_kind.h"
#include "hints.h"
#include "lint_command.h"
#include "list_checks.h"
#include "records.h"
#include "report.h"
#include "write_json.h"

namespace fs = std::filesystem;
using namespace runner;

namespace {

const bool kTerminal = isatty(STDOUT_FILENO) != 0;

// One line, rewritten in place, on a terminal only: a log or a pipe gets no progress noise.
void progress_line(const std::string& text) {
  if (!kTerminal) return;
  std::printf("\r\033[K%s", text.substr(0, 100).c_str());
  std::fflush(stdout);
}

std::vector<const Lesson*> chosen_lessons(const Course& course, const std::vector<std::string>& names) {
  std::vector<const Lesson*> lessons;
  for (const std::string& name : names) {
    const Lesson* lesson = course.find(name);
    if (lesson == nullptr) throw std::runtime_error("no lesson '" + name + "' in this build (try 00, 03 or 03-mandelbrot)");
    lessons.push_back(lesson);
  }
  if (names.empty())
    for (const Lesson& lesson : course.lessons) lessons.push_back(&lesson);
  return lessons;
}

void show_check_progress(int done, int total, const std::string& check) {
  std::string name = check;
  const std::size_t slash = name.find('/');
  const std::size_t last = name.rfind('/');
  if (slash != std::string::npos) name = name.substr(0, slash) + " " + name.substr(last + 1);
  progress_line("[" + std::to_string(done + 1 > total ? total : done + 1) + "/" + std::to_string(total) + "] " + name);
}

// Builds one lesson's targets of `track`; if they do not build, writes its Build FAIL record.
bool build_lesson(const Course& course, const std::string& track, const Lesson& lesson, const std::string& step) {
  const std::vector<std::string>& targets = lesson.targets(track);
  progress_line("[build " + step + "] " + lesson.slug);
  const BuildResult result = build_targets(course, targets);
  if (result.ok) return true;
  Record r;
  r.lesson = lesson.slug;
  r.track = track;
  r.check = kBuildCheck;
  r.status = "FAIL";
  r.measured = result.location.empty() ? "the build" : result.location;
  r.detail = result.first_error.empty() ? "the build failed" : result.first_error;
  std::vector<std::string> rebuild{"cmake", "--build", display_path(course.build_dir), "--target"};
  rebuild.insert(rebuild.end(), targets.begin(), targets.end());
  for (const std::string& word : rebuild) r.rerun += (r.rerun.empty() ? "" : " ") + word;
  write_record(course.results_dir(track), r);
  return false;
}

// Builds the lessons, runs the checks of those that built, and returns the track's records, old
// ones of other lessons included. The course's tools (the doctor) are built first unless
// `build_tools` is false (watch's grades after its first: a build that finds them up to date
// still costs a make of its own, a tenth of a watch's seconds).
Grades grade(const Course& course, const std::string& track, const std::vector<const Lesson*>& lessons, bool build,
             const std::vector<std::string>& skip = {}, bool build_tools = true) {
  const fs::path results = course.results_dir(track);
  if (build && build_tools && !course.tools.empty()) {
    progress_line("building " + course.tools.front() + "...");
    const BuildResult tools = build_targets(course, course.tools);
    if (!tools.ok) {
      progress_line("");
      std::cout << tools.log;
      throw std::runtime_error("the course's own code did not build (not an exercise): " + tools.first_error);
    }
  }
  std::vector<std::string> slugs;
  for (const Lesson* lesson : lessons) slugs.push_back(lesson->slug);
  const std::vector<EarlierRecord> earlier = earlier_records(results, slugs);
  if (lessons.size() == course.lessons.size()) remove_records(results, "");
  const auto step = [&](std::size_t i) { return std::to_string(i + 1) + "/" + std::to_string(lessons.size()); };

  // On a terminal, the first lesson is built and graded before the others (minutes of building
  // on a fresh clone): what to do next shows while they build.
  std::size_t first = 0;
  if (kTerminal && build && lessons.size() > 1 && !lessons[0]->targets(track).empty()) {
    first = 1;
    if (lessons.size() != course.lessons.size()) remove_records(results, lessons[0]->slug);
    if (build_lesson(course, track, *lessons[0], step(0)))
      run_checks(course, track, {lessons[0]->slug}, skip, show_check_progress, earlier);
    const Grades so_far = summarise(course, track, load_records(results));
    const LessonState* next = so_far.next();
    progress_line("");
    if (next != nullptr && next->slug == lessons[0]->slug)
      std::cout << lessons[0]->slug << ", graded while the other lessons build:\n" << next_line(course, so_far) << std::flush;
  }

  // The whole course: one build of every lesson first, on every core (a lesson that does not
  // compile does not stop the others). When it built, every lesson is built; when not, each
  // lesson's own build below finds it done, or says its error.
  bool all_built = false;
  if (build && lessons.size() == course.lessons.size() && lessons.size() > first + 1 &&
      !course.lessons_target(track).empty()) {
    progress_line("[build] " + std::to_string(lessons.size() - first) + " lessons");
    all_built = build_targets(course, {course.lessons_target(track)}, true).ok;
  }
  std::vector<std::string> built;
  for (std::size_t i = first; i < lessons.size(); ++i) {
    const Lesson* lesson = lessons[i];
    if (lessons.size() != course.lessons.size()) remove_records(results, lesson->slug);
    if (lesson->targets(track).empty()) continue;
    if (build && !all_built && !build_lesson(course, track, *lesson, step(i))) continue;
    built.push_back(lesson->slug);
  }
  run_checks(course, track, built, skip, show_check_progress, earlier);
  progress_line("");
  return summarise(course, track, load_records(results));
}

Grades last_grades(const Course& course, const std::string& track) {
  return summarise(course, track, load_records(course.results_dir(track)));
}

std::map<fs::path, fs::file_time_type> snapshot(const fs::path& dir) {
  std::map<fs::path, fs::file_time_type> times;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir, error))
    if (entry.is_regular_file(error)) times[entry.path()] = entry.last_write_time(error);
  return times;
}

int watch(const Course& course, const std::string& name) {
  const Lesson* lesson = nullptr;
  auto pick = [&] {
    if (!name.empty()) return chosen_lessons(course, {name}).front();
    const LessonState* next = last_grades(course, "exercise").next();
    const Lesson* found = next != nullptr ? course.find(next->slug) : nullptr;
    return found != nullptr ? found : &course.lessons.front();
  };
  if (course.lessons.empty()) throw std::runtime_error("this build has no lessons");
  for (bool first = true;; first = false) {
    lesson = pick();
    const fs::path dir = course.lesson_dir(*lesson);
    const Grades grades = grade(course, "exercise", {lesson}, true, {}, first);
    std::cout << "\n" << report(course, grades, lesson->slug)
              << "watching " << display_path(dir) << ": save a file to grade it again (Ctrl-C stops)\n"
              << std::flush;
    // Looked at twenty times a second (a lesson folder is a few files): a save is seen within 50 ms,
    // and graded once a look 50 ms later sees nothing more change (an editor may write in steps).
    const auto before = snapshot(dir);
    auto now = before;
    while (now == before) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      now = snapshot(dir);
    }
    decltype(now) settled;
    do {
      settled = now;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      now = snapshot(dir);
    } while (now != settled);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Stepwise CUDA: grade the exercises, and say what to do next."};
  std::string build_dir;
  app.add_option("--build", build_dir, "the build folder (default: the one this program was built in)");
  app.require_subcommand(1);

  std::string track = "exercise";
  std::vector<std::string> lessons;
  bool report_only = false, full_table = false, no_build = false;
  CLI::App* grade_cmd = app.add_subcommand("grade", "build the lessons, run their checks, print the overview and next:");
  grade_cmd->add_option("lessons", lessons, "lessons to grade (e.g. 03 or 03-mandelbrot); all when none");
  grade_cmd->add_option("--track", track, "exercise (yours), solution, or tuned (the tuned versions beside some solutions)")
      ->check(CLI::IsMember(kTracks));
  grade_cmd->add_flag("--table", full_table, "print every check's row instead of the overview");
  grade_cmd->add_flag("--no-build", no_build, "run the checks of what is built, build nothing");
  grade_cmd->add_flag("--report-only", report_only, "exit 0 even when checks fail (the grade target)");
  std::vector<std::string> skip;
  grade_cmd->add_option("--skip", skip, "leave out the checks with this label: speed (a GPU too weak), sanitizer")
      ->check(CLI::IsMember({"speed", "sanitizer", "gpu", "cpu", "correctness"}));

  CLI::App* next_cmd = app.add_subcommand("next", "what to do now, from the last grading run");
  CLI::App* table_cmd = app.add_subcommand("table", "every check of the last grading run, one row each");
  table_cmd->add_option("--track", track, "exercise, solution or tuned")->check(CLI::IsMember(kTracks));
  CLI::App* outcome_cmd = app.add_subcommand("outcome", "exit status of the last grading run (1: FAIL or TODO left)");
  outcome_cmd->add_option("--track", track, "exercise, solution or tuned")->check(CLI::IsMember(kTracks));

  std::string hint_lesson;
  int hint_step = 0;
  CLI::App* hint_cmd = app.add_subcommand("hint", "the Hints of a lesson's README, or of one step");
  hint_cmd->add_option("lesson", hint_lesson, "the lesson, e.g. 03")->required();
  hint_cmd->add_option("step", hint_step, "the step")->check(CLI::PositiveNumber);

  std::string watch_lesson;
  CLI::App* watch_cmd = app.add_subcommand("watch", "grade a lesson again each time one of its files is saved");
  watch_cmd->add_option("lesson", watch_lesson, "the lesson (default: the next unfinished one)");

  std::string lint_source;
  LintOptions lint_options;
  CLI::App* lint_cmd = app.add_subcommand("lint", "the course's static checks: docs against course.json, each lesson's steps and hints, code in the docs (1: a problem)");
  lint_cmd->add_option("source_dir", lint_source, "the course's source folder (default: this build's)");
  lint_cmd->add_option("--only", lint_options.only, "one part: docs, lessons, docs-code, or requirements (not part of all)")
      ->check(CLI::IsMember({"docs", "lessons", "docs-code", "requirements"}));
  lint_cmd->add_flag("--fix", lint_options.fix, "rewrite each code block in the docs that differs from the region it names");
  lint_cmd->add_option("--lesson", lint_options.lessons, "check only this lesson's files (repeatable; default: course.json's)");
  lint_cmd->add_option("--program", lint_options.programs, "requirements: <lesson>=<its test program> (repeatable)");
  lint_cmd->add_option("--requirements", lint_options.requirements, "requirements: the file (default: grader/requirements.txt)");

  ClassOptions class_options;
  CLI::App* class_cmd = app.add_subcommand("class", "grade a class: every student's exercise files into a gradebook");
  class_cmd->add_option("class_dir", class_options.class_dir, "one folder per student, each holding lessons/NN-slug/...")
      ->required()->check(CLI::ExistingDirectory);
  class_cmd->add_option("--out", class_options.out, "where the class build, records, gradebook and reports go")->required();
  class_cmd->add_option("--lessons", class_options.lessons, "the lessons graded (e.g. 00 01 04-gpu-mesh); all when none");
  class_cmd->add_option("--requirements", class_options.requirements, "another requirements file")->check(CLI::ExistingFile);
  class_cmd->add_option("--speed-scale", class_options.speed_scale, "multiplies every speed minimum (e.g. 0.5 for weaker GPUs)")
      ->check(CLI::Validator(
          [](std::string& value) {
            char* end = nullptr;
            const double scale = std::strtod(value.c_str(), &end);
            return !value.empty() && end != nullptr && *end == '\0' && scale > 0 && scale < 1e6
                       ? std::string()
                       : "'" + value + "' is not a scale factor: a number above 0, e.g. 0.5";
          },
          "SCALE"));
  class_cmd->add_option("--time-limit", class_options.time_limit, "seconds one check may run before it is killed")
      ->check(CLI::PositiveNumber);
  class_cmd->add_option("--jobs", class_options.jobs, "checks run at once (default: the machine's cores)")->check(CLI::PositiveNumber);
  class_cmd->add_option("--checks-per-gpu", class_options.checks_per_gpu, "correctness checks sharing one GPU")
      ->check(CLI::PositiveNumber);
  class_cmd->add_option("--skip", class_options.skip, "leave out the checks with this label (speed, sanitizer)")
      ->check(CLI::IsMember({"speed", "sanitizer", "gpu", "cpu", "correctness"}));
  class_cmd->add_option("--student", class_options.students, "check only these students (by folder name)");
  class_cmd->add_option("--student-index", class_options.student_index, "check only the Nth student, from 0 (Slurm arrays)")
      ->check(CLI::NonNegativeNumber);
  class_cmd->add_flag("--fresh", class_options.fresh, "check the chosen students again, even those already graded");
  class_cmd->add_option("--step", class_options.step, "prepare, check or merge alone (all three by default)")
      ->check(CLI::IsMember({"all", "prepare", "check", "merge"}));
  class_cmd->add_option("--cuda-architectures", class_options.architectures, "CMAKE_CUDA_ARCHITECTURES of the class build")
      ->check(CLI::Validator(
          [](std::string& value) {
            static const std::regex list(R"(^(native|all|all-major|[0-9]+[af]?(-real|-virtual)?(;[0-9]+[af]?(-real|-virtual)?)*)$)");
            return std::regex_match(value, list) ? std::string()
                                                 : "'" + value + "' is not a CMAKE_CUDA_ARCHITECTURES value (e.g. 90, 75;86, native)";
          },
          "ARCHITECTURES"));

  ClassCheck class_check;
  CLI::App* class_check_cmd = app.add_subcommand("class-check", "run one check of one student (a class build's CTest test)");
  class_check_cmd->group("");  // internal: grader/class/add_checks.cmake calls it
  class_check_cmd->add_option("--program", class_check.program)->required();
  class_check_cmd->add_option("--lesson", class_check.lesson)->required();
  class_check_cmd->add_option("--student", class_check.student)->required();
  class_check_cmd->add_option("--check", class_check.check)->required();
  class_check_cmd->add_option("--results", class_check.results)->required();
  class_check_cmd->add_option("--scratch", class_check.scratch)->required();
  class_check_cmd->add_option("--time-limit", class_check.time_limit)->check(CLI::PositiveNumber);

  fs::path list_program, list_output;
  CLI::App* list_checks_cmd = app.add_subcommand("list-checks", "write a test program's checks, one a line: <Suite.Test> <kind> <labels>");
  list_checks_cmd->group("");  // internal: grader/class/CMakeLists.txt calls it
  list_checks_cmd->add_option("--program", list_program, "the lesson's test program")->required();
  list_checks_cmd->add_option("--output", list_output, "the file written")->required();

  std::vector<std::string> kinds_of;
  std::string kinds_prefix;
  CLI::App* check_kinds_cmd = app.add_subcommand("check-kinds", "print each check's line: <Suite.Test> <kind> <labels>");
  check_kinds_cmd->group("");  // internal: cmake/test_kinds.cmake calls it
  check_kinds_cmd->add_option("checks", kinds_of, "Suite.Test names or GoogleTest patterns (Suite.*)");
  check_kinds_cmd->add_option("--prefix", kinds_prefix, "dropped from each name that starts with it (<NN-slug>/<track>/)");

  std::string filter_kind;
  CLI::App* check_filter_cmd =
      app.add_subcommand("check-filter", "print the GoogleTest filter that keeps the checks of one kind");
  check_filter_cmd->group("");  // internal: grader/broken/expect_trick.cmake calls it
  check_filter_cmd->add_option("kind", filter_kind, "correctness or speed")
      ->required()
      ->check(CLI::IsMember({"correctness", "speed"}));

  fs::path json_file;
  std::vector<std::string> json_facts;
  CLI::App* write_json_cmd = app.add_subcommand("write-json", "write a JSON file of facts: <pointer>=<text>, <pointer>[], <pointer>{}");
  write_json_cmd->group("");  // internal: CMake calls it (grader/runner/Course.cmake, grader/class)
  write_json_cmd->add_option("file", json_file, "the file written (left as it is if it holds the same)")->required();
  write_json_cmd->add_option("facts", json_facts, "the facts, in order (write_json.h)");

  CLI11_PARSE(app, argc, argv);

  try {
    if (*class_check_cmd) return run_class_check(class_check);
    if (*list_checks_cmd) return run_list_checks(list_program, list_output);
    if (*check_kinds_cmd) return run_check_kinds(kinds_of, kinds_prefix);
    if (*check_filter_cmd) {
      const char* filter = filter_kind == "speed" ? grader::kSpeedChecksFilter : grader::kCorrectnessChecksFilter;
      return (std::cout << filter << "\n").good() ? 0 : 1;
    }
    if (*write_json_cmd) return run_write_json(json_file, json_facts);
    const Course course = load_course(build_dir.empty() ? fs::path(STEPWISE_COURSE_FILE)
                                                        : fs::path(build_dir) / "stepwise-course.json");
    if (*lint_cmd) {
      lint_options.source_dir = lint_source.empty() ? course.source_dir : fs::path(lint_source);
      return run_lint(lint_options);
    }
    if (*class_cmd) return grade_class(course, class_options);
    if (*grade_cmd) {
      const std::vector<const Lesson*> chosen = chosen_lessons(course, lessons);
      const Grades grades = grade(course, track, chosen, !no_build, skip);
      // `grade NN` reports lesson NN, whatever comes first in the course.
      const std::string only = lessons.size() == 1 ? chosen.front()->slug : "";
      std::cout << (full_table ? table(course, grades) : report(course, grades, only));
      return grades.unfinished() && !report_only ? 1 : 0;
    }
    if (*next_cmd || *table_cmd) {
      const Grades grades = last_grades(course, track);
      std::cout << (*table_cmd ? table(course, grades) : report(course, grades));
      return *next_cmd && grades.unfinished() ? 1 : 0;
    }
    if (*outcome_cmd) {
      const Grades grades = last_grades(course, track);
      // The verdict, the report's counts line. The grade workflow's last step runs this as a
      // quiet CTest test (CMakePresets.json), which would swallow it: that test preset sets
      // STEPWISE_OUTCOME_TO_CTEST_OUTPUT, and the line goes to CTest's own output (Linux, WSL:
      // /proc), so it is the workflow's last line. Elsewhere, or if that fails, to stdout.
      std::ostringstream verdict;
      if (grades.total() == 0)
        verdict << track << ": no checks graded yet\n";
      else
        verdict << grades.track << ": " << grades.passed << " of " << grades.total() << " checks pass ("
                << grades.failed << " FAIL, " << grades.todo << " TODO, " << grades.skipped << " SKIP)\n";
      std::ofstream ctest_output;
      if (std::getenv("STEPWISE_OUTCOME_TO_CTEST_OUTPUT") != nullptr)
        ctest_output.open("/proc/" + std::to_string(getppid()) + "/fd/1", std::ios::app);
      (ctest_output.is_open() ? static_cast<std::ostream&>(ctest_output) : std::cout) << verdict.str() << std::flush;
      if (grades.total() == 0) return 77;  // nothing graded: CTest reports the test as skipped
      return grades.unfinished() ? 1 : 0;
    }
    if (*hint_cmd) {
      const Lesson* lesson = chosen_lessons(course, {hint_lesson}).front();
      std::ifstream in(course.lesson_dir(*lesson) / "README.md");
      std::stringstream text;
      text << in.rdbuf();
      std::string listed;  // the lesson's steps, "1, 2, 3", from its README's "### Step N" headings
      bool has_step = hint_step == 0;
      const std::vector<int> steps = readme_steps(text.str());
      for (const int step : steps) {
        listed += (listed.empty() ? "" : ", ") + std::to_string(step);
        has_step = has_step || step == hint_step;
      }
      if (!has_step)
        throw std::runtime_error("lesson " + lesson->slug + " has no step " + std::to_string(hint_step) +
                                 (steps.empty() ? "; its README has no '### Step N' headings" : "; its steps are " + listed));
      const std::string found = hints(text.str(), hint_step);
      if (found.empty()) throw std::runtime_error("lessons/" + lesson->slug + "/README.md has no Hints section");
      std::cout << found;
      return 0;
    }
    if (*watch_cmd) return watch(course, watch_lesson);
  } catch (const std::exception& e) {
    progress_line("");
    std::cerr << "stepwise: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
