#include "report.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "hints.h"

namespace runner {

namespace {

int status_order(const std::string& status) {
  return status == "FAIL" ? 0 : status == "TODO" ? 1 : status == "SKIP" ? 2 : 3;
}

std::string first_line(const std::string& text, std::size_t width = 150) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > width) line = line.substr(0, width - 3) + "...";
  return line;
}

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

// The student's view of a path or command: "build/..." instead of the absolute build folder.
std::string shorten(const Course& course, std::string text) {
  std::string from = course.build_dir.lexically_normal().string();
  if (from.size() > 1 && from.back() == '/') from.pop_back();
  const std::string to = display_path(course.build_dir);
  for (std::size_t at = text.find(from); !from.empty() && at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string runner_command(const Course& course) { return display_path(course.build_dir / "bin" / "stepwise"); }

}  // namespace

std::set<int> LessonState::steps_waiting_for_gpu() const {
  std::set<int> waiting;
  if (failed > 0 || skipped == too_small || waits_for_gpu()) return waiting;
  for (const int step : steps) {
    const bool todo_check = std::any_of(records.begin(), records.end(),
                                        [&](const Record& r) { return r.status == "TODO" && r.step == step; });
    if (steps_left.count(step) == 0 && !todo_check) waiting.insert(step);
  }
  return waiting;
}

const LessonState* Grades::next() const {
  // A lesson that only waits for a GPU is passed over: on a machine without one, the next thing
  // to do is the next step still to write.
  for (const LessonState& lesson : lessons)
    if (!lesson.done() && !lesson.waits_for_gpu()) return &lesson;
  return nullptr;
}

Grades summarise(const Course& course, const std::string& track, std::vector<Record> records) {
  Grades grades;
  grades.track = track;
  std::vector<std::string> order;
  for (const Lesson* lesson : course.lessons_of(track)) order.push_back(lesson->slug);
  std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.lesson < b.lesson; });
  for (const Record& r : records)
    if (std::find(order.begin(), order.end(), r.lesson) == order.end()) order.push_back(r.lesson);

  for (const std::string& slug : order) {
    LessonState state;
    state.slug = slug;
    for (const Record& r : records)
      if (r.lesson == slug) state.records.push_back(r);
    std::sort(state.records.begin(), state.records.end(), [](const Record& a, const Record& b) {
      const int sa = status_order(a.status), sb = status_order(b.status);
      if (sa != sb) return sa < sb;
      if (a.step != b.step) return a.step < b.step;
      return a.check < b.check;
    });
    if (track == "exercise") {
      const Lesson* lesson = course.find(slug);
      if (lesson != nullptr) {
        state.steps_left = steps_left(course.lesson_dir(*lesson));
        std::ifstream in(course.lesson_dir(*lesson) / "README.md");
        std::stringstream readme;
        readme << in.rdbuf();
        for (const int step : readme_steps(readme.str())) state.steps.insert(step);
      }
    }
    for (const Record& r : state.records) {
      if (r.status == "PASS") ++state.passed;
      else if (r.status == "TODO") ++state.todo;
      else if (r.status == "SKIP") ++state.skipped;
      else ++state.failed;
      if (r.status == "SKIP" && r.gpu_too_small) ++state.too_small;
    }
    grades.passed += state.passed;
    grades.failed += state.failed;
    grades.todo += state.todo;
    grades.skipped += state.skipped;
    grades.too_small += state.too_small;
    grades.lessons.push_back(std::move(state));
  }
  return grades;
}

std::string next_line(const Course& course, const Grades& grades) {
  std::ostringstream out;
  const int no_gpu = grades.skipped - grades.too_small;
  if (no_gpu > 0)
    out << no_gpu << (no_gpu == 1 ? " check needs a GPU: it was" : " checks need a GPU: they were")
        << " not run (" << display_path(course.build_dir / "bin" / "stepwise-doctor")
        << " says why; docs/setup.md)\n";
  if (grades.too_small > 0)
    out << grades.too_small << (grades.too_small == 1 ? " check needs" : " checks need")
        << " more device memory than this GPU has: not run here, and not held against you ("
        << runner_command(course) << " table says how much)\n";
  std::string waiting;  // lessons (or steps) written but not checked here: one line, however many
  for (const LessonState& state : grades.lessons) {
    std::string steps;
    for (const int step : state.steps_waiting_for_gpu()) steps += (steps.empty() ? "" : ", ") + std::to_string(step);
    if (state.waits_for_gpu())
      waiting += (waiting.empty() ? "" : ", ") + state.slug;
    else if (!steps.empty())
      waiting += (waiting.empty() ? "" : ", ") + state.slug +
                 (steps.find(',') == std::string::npos ? " step " : " steps ") + steps;
  }
  if (!waiting.empty()) out << "written, waiting for a GPU to check: " << waiting << "\n";
  const LessonState* lesson = grades.next();
  if (grades.total() == 0) {
    out << "next: nothing was graded yet: " << runner_command(course) << " grade\n";
    return out.str();
  }
  if (lesson == nullptr && no_gpu > 0) {
    out << "next: every step is written; run the grader on a machine with a GPU to check them\n";
    return out.str();
  }
  if (lesson == nullptr) {
    out << "next: nothing: every check passes\n";
    return out.str();
  }
  const std::string readme = (grades.track == "exercise" ? "lessons/" : "solutions/") + lesson->slug +
                             (grades.track == "exercise" ? "/README.md" : "");
  std::set<int> steps = lesson->steps_left;
  for (const Record& r : lesson->records)
    if (r.status == "TODO" && r.step > 0) steps.insert(r.step);
  if (lesson->build_failure() != nullptr) {
    out << "next: fix the compile error at " << lesson->build_failure()->measured << " (FAIL above)\n";
  } else if (lesson->failed > 0) {
    out << "next: fix " << lesson->slug << " " << lesson->records.front().check << " (FAIL above), then "
        << readme << (steps.empty() ? "" : " step " + std::to_string(*steps.begin())) << "\n";
  } else if (!steps.empty()) {
    out << "next: " << readme << " step " << *steps.begin() << "   (hint: " << runner_command(course) << " hint "
        << lesson->slug.substr(0, 2) << " " << *steps.begin() << ")\n";
  } else if (lesson->total() == 0) {
    out << "next: " << readme << " (not graded yet: " << runner_command(course) << " grade "
        << lesson->slug.substr(0, 2) << ")\n";
  } else {
    out << "next: " << readme << " (its checks have not run: they need a GPU)\n";
  }
  return out.str();
}

std::string report(const Course& course, const Grades& grades, const std::string& only) {
  std::ostringstream out;
  std::size_t width = 6;
  for (const LessonState& lesson : grades.lessons) width = std::max(width, lesson.slug.size());
  out << pad("lesson", width + 2) << "passed\n";
  const LessonState* lesson = grades.next();
  for (const LessonState& state : grades.lessons) {
    if (only.empty() || state.slug != only) continue;
    lesson = &state;
  }
  for (const LessonState& lesson : grades.lessons) {
    if (!only.empty() && lesson.slug != only) continue;
    const std::string count = std::to_string(lesson.passed) + "/" + std::to_string(lesson.total());
    std::string line = pad(lesson.slug, width + 2);
    if (lesson.build_failure() != nullptr)
      line += pad("-", 7) + "does not compile: " + first_line(lesson.build_failure()->detail, 100);
    else if (lesson.total() == 0)
      line += pad("-", 7) + "not graded";
    else if (lesson.done())
      line += pad(count, 7) + "\u2713" +
              (lesson.too_small > 0 ? " (" + std::to_string(lesson.too_small) + " too big for this GPU)" : "");
    else if (lesson.skipped > lesson.too_small)
      line += pad(count, 7) + std::to_string(lesson.skipped - lesson.too_small) + " not run (no GPU)";
    else
      line += count;
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << "\n";
  }

  if (lesson != nullptr && lesson->total() > 0 && !lesson->done()) {
    out << "\n" << lesson->slug << ": " << (lesson->total() - lesson->passed) << " of " << lesson->total()
        << " checks to finish\n";
    int skipped = 0;
    std::string skip_reason;
    for (const Record& r : lesson->records) {
      if (r.passed()) continue;
      if (r.status == "SKIP") {
        if (skipped++ == 0) skip_reason = first_line(r.detail, 100);
        continue;
      }
      const std::string step = r.step > 0 ? "step " + std::to_string(r.step) : "";
      out << "  " << pad(step, 8) << pad(r.status, 6) << r.check;
      if (r.status == "FAIL") {
        out << ": " << first_line(r.check == kBuildCheck ? r.detail : r.detail.empty() ? r.measured : r.detail) << "\n";
        if (!r.rerun.empty()) out << "  " << std::string(14, ' ') << shorten(course, r.rerun) << "\n";
      } else {
        out << "\n";
      }
    }
    if (skipped > 0) out << "  " << skipped << (skipped == 1 ? " check" : " checks") << " not run: " << skip_reason << "\n";
    if (lesson->todo == 0 && !lesson->steps_left.empty()) {
      std::string steps;
      for (int step : lesson->steps_left) steps += (steps.empty() ? "" : ", ") + std::to_string(step);
      out << "  steps whose STEPWISE_TODO line is still in the code: " << steps << "\n";
    }
    if (lesson->todo > 0)
      out << "  re-run: " << runner_command(course) << " grade " << lesson->slug.substr(0, 2)
          << "   (one check in full: ctest --test-dir " << display_path(course.build_dir)
          << " --output-on-failure -R CHECK)\n";
  }

  out << "\n" << grades.track << ": " << grades.passed << " of " << grades.total() << " checks pass ("
      << grades.failed << " FAIL, " << grades.todo << " TODO, " << grades.skipped << " SKIP)\n";
  out << next_line(course, grades);
  return out.str();
}

std::string table(const Course& course, const Grades& grades) {
  std::vector<std::vector<std::string>> rows{{"lesson", "check", "result", "measured", "required"}};
  std::vector<std::string> reasons{""};
  for (const LessonState& lesson : grades.lessons) {
    std::vector<Record> records = lesson.records;
    std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.check < b.check; });
    for (const Record& r : records) {
      const std::string measured = r.status == "TODO" && r.step > 0 ? "see README step " + std::to_string(r.step)
                                   : r.status == "SKIP"                 ? "not run: " + first_line(r.detail, 60)
                                                                        : r.measured;
      rows.push_back({r.lesson, r.check, r.status, first_line(measured), r.required});
      reasons.push_back(r.status == "FAIL" ? first_line(shorten(course, r.detail)) : "");
    }
  }
  std::vector<std::size_t> widths(5, 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < 5; ++i) widths[i] = std::max(widths[i], row[i].size());
  std::ostringstream out;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    std::string line;
    for (std::size_t i = 0; i < 5; ++i) line += pad(rows[k][i], widths[i] + 2);
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << "\n";
    if (k == 0) {
      for (char& c : line)
        if (c != ' ') c = '-';
      out << line << "\n";
    }
    if (!reasons[k].empty()) out << "    -> " << reasons[k] << "\n";
  }
  out << "\n" << grades.track << ": " << grades.total() << " checks: " << grades.passed << " PASS, " << grades.failed
      << " FAIL, " << grades.todo << " TODO, " << grades.skipped << " SKIP\n";
  out << next_line(course, grades);
  return out.str();
}

}  // namespace runner
