#include "gradebook.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "grader/check_kind.h"
#include "student_manifest.h"

namespace runner {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}


std::string cell(const std::string& text) {  // a table cell of the report: one line, no '|'
  std::string line = text.substr(0, text.find('\n'));
  std::replace(line.begin(), line.end(), '|', '/');
  return line.size() > 90 ? line.substr(0, 87) + "..." : line;
}

}  // namespace

// A speed check's cell: its figure when it passed, else its status (SKIP, FAIL, TODO), else empty.
// A failed check's figure may time work that was skipped (its output was wrong): the report
// shows it, with the reason, but a number in the gradebook would read as a speed.
std::string speed_cell(const Record& r) {
  if (r.figure && r.passed()) return number(*r.figure);
  return r.status;
}

bool is_speed_check(const std::string& check) { return grader::check_kind(check) == grader::CheckKind::speed; }

std::vector<std::string> listed_checks(const fs::path& list_file) {
  std::vector<std::string> checks;
  std::ifstream in(list_file);
  for (std::string line; std::getline(in, line);) {
    const std::string check = line.substr(0, line.find(' '));
    if (!check.empty()) checks.push_back(check);
  }
  return checks;
}

StudentGrades student_grades(const fs::path& class_build, const fs::path& results, const std::string& student,
                             const std::vector<std::string>& lessons) {
  StudentGrades grades;
  grades.student = student;
  const fs::path folder = class_build / "students" / student;
  const StudentManifest manifest = read_student_manifest(folder);
  grades.ignored = manifest.ignored;
  const std::vector<Record> records = load_records(results);
  for (const std::string& slug : lessons) {
    StudentLesson lesson;
    lesson.slug = slug;
    lesson.checks = listed_checks(class_build / "checks" / (slug + ".txt"));
    const StudentManifest::Lesson& entry = manifest.lesson(slug);
    lesson.used = entry.used;
    lesson.not_sent = entry.not_sent;
    const Record* build = nullptr;
    for (const Record& r : records)
      if (r.lesson == slug && r.check == kBuildCheck && r.status == "FAIL") build = &r;
    // Every listed check counts once: passed (PASS), failed (FAIL or TODO, and every check of a
    // lesson missing or not compiling: the student's doing), skipped (SKIP: the grading machine's
    // doing, e.g. no GPU) or not run (no record, e.g. --skip).
    const bool missing = !entry.sent;
    if (missing || build != nullptr) {
      lesson.state = missing ? "missing" : "does not compile";
      lesson.failed = static_cast<int>(lesson.checks.size());  // no credit: every check counts as failed
      if (build != nullptr) lesson.build = *build;
      for (const std::string& check : lesson.checks) {
        Record failed;
        failed.lesson = slug;
        failed.check = check;
        failed.status = "FAIL";
        failed.measured = lesson.state;
        failed.detail = missing ? "the lesson was not sent" : "the lesson does not compile";
        lesson.records.push_back(failed);
      }
    } else {
      for (const std::string& check : lesson.checks) {
        Record found;
        found.lesson = slug;
        found.check = check;
        for (const Record& r : records)
          if (r.lesson == slug && r.check == check) found = r;
        if (found.status == "PASS") ++lesson.passed;
        else if (found.status == "SKIP") ++lesson.skipped;
        else if (found.status.empty()) ++lesson.not_run;
        else ++lesson.failed;
        if (found.seconds) grades.seconds += *found.seconds;
        lesson.records.push_back(found);
      }
      const int total = static_cast<int>(lesson.checks.size());
      lesson.state = lesson.not_run == 0 ? "graded" : lesson.not_run == total ? "not run" : "incomplete";
    }
    grades.passed += lesson.passed;
    grades.failed += lesson.failed;
    grades.skipped += lesson.skipped;
    grades.of += static_cast<int>(lesson.checks.size());
    grades.lessons.push_back(lesson);
  }
  for (const StudentLesson& lesson : grades.lessons)
    for (const std::string& file : lesson.used)
      for (const Finding& finding : scan_file(folder / file, file)) grades.flags.push_back(finding);
  std::error_code error;
  const fs::path scratch = folder / "scratch";
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(scratch, error))
    if (!entry.is_directory(error)) grades.wrote.push_back(fs::relative(entry.path(), scratch, error).string());
  std::sort(grades.wrote.begin(), grades.wrote.end());
  return grades;
}

namespace {

std::string report(const StudentGrades& s) {
  std::ostringstream out;
  out << "# " << s.student << "\n\n"
      << s.passed << " of " << s.of << " checks pass (" << s.failed << " fail, " << s.skipped
      << " not run for want of a GPU)\n";
  for (const StudentLesson& lesson : s.lessons) {
    out << "\n## " << lesson.slug << ": ";
    if (lesson.state == "missing") {
      out << "missing\n\nNo exercise file of this lesson was sent (lessons/" << lesson.slug << "/"
          << " is empty or absent): its " << lesson.checks.size() << " checks count as failed.\n";
      continue;
    }
    if (lesson.state == "does not compile") {
      const Record& build = lesson.build;
      out << "does not compile\n\nThe compiler's first error (" << build.measured << "):\n\n```\n"
          << build.detail << "\n```\n";
    } else {
      out << lesson.passed << " of " << lesson.checks.size() << " pass" << (lesson.state == "graded" ? "" : " (" + lesson.state + ")")
          << "\n\n| check | result | measured | required |\n| --- | --- | --- | --- |\n";
      for (const Record& r : lesson.records)
        out << "| " << r.check << " | " << (r.status.empty() ? "not run" : r.status) << " | "
            << cell(r.status == "SKIP" ? "not run: " + r.detail : r.measured) << " | " << cell(r.required) << " |\n";
      bool heading = false;
      for (const Record& r : lesson.records) {
        if (r.status != "FAIL" && r.status != "TODO") continue;
        if (!heading) out << "\nWhy checks failed:\n\n";
        heading = true;
        std::string detail = r.detail;
        for (std::size_t at = detail.find('\n'); at != std::string::npos; at = detail.find('\n', at + 3))
          detail.replace(at, 1, "\n  ");
        out << "- " << r.check << " (" << r.status << "): " << detail << "\n";
      }
    }
    if (!lesson.used.empty()) {
      out << "\nGraded from:";
      for (const std::string& file : lesson.used) out << " " << file;
      out << "\n";
    }
    if (!lesson.not_sent.empty()) {
      out << "\nNot sent (the untouched exercise file was graded instead):";
      for (const std::string& file : lesson.not_sent) out << " " << file;
      out << "\n";
    }
  }
  out << "\n## Flags\n\n";
  if (s.flags.empty()) out << "None: the source scan found nothing in the files graded that could get round the grader.\n";
  else out << "The source scan found code that could get round the grader from inside its checks (read it before "
              "trusting these results; docs/grading.md, \"Untrusted code\"):\n\n";
  for (const Finding& f : s.flags) out << "- " << f.where() << ": " << f.what << "\n";
  out << "\n## Files\n\n";
  if (s.ignored.empty()) out << "Nothing was ignored: every file sent is an exercise file of a graded lesson.\n";
  else out << "Ignored (not an exercise file of a graded lesson: never compiled):\n\n";
  for (const std::string& file : s.ignored) out << "- " << file << "\n";
  if (!s.wrote.empty()) {
    out << "\nFiles the code wrote while its checks ran (in its working folder):\n\n";
    for (const std::string& file : s.wrote) out << "- " << file << "\n";
  }
  return out.str();
}

}  // namespace

void write_gradebook(const fs::path& out, const std::vector<std::string>& lessons, const fs::path& class_build,
                     const std::vector<StudentGrades>& students) {
  fs::create_directories(out / "reports");
  std::vector<std::string> header{"student"};
  std::vector<std::vector<std::string>> speed_checks;
  for (const std::string& slug : lessons) {
    for (const char* column : {"passed", "failed", "skipped", "of", "state"}) header.push_back(slug + " " + column);
    speed_checks.emplace_back();
    for (const std::string& check : listed_checks(class_build / "checks" / (slug + ".txt")))
      if (is_speed_check(check)) {
        speed_checks.back().push_back(check);
        header.push_back(slug + " " + check);
      }
  }
  for (const char* column : {"passed", "failed", "skipped", "of", "seconds", "flags", "ignored files"}) header.push_back(column);

  std::ofstream csv(out / "gradebook.csv");
  json book = {{"lessons", lessons}, {"students", json::array()}};
  for (std::size_t i = 0; i < header.size(); ++i) csv << (i ? "," : "") << csv_field(header[i]);
  csv << "\n";
  for (const StudentGrades& s : students) {
    std::vector<std::string> row{s.student};
    json student = {{"student", s.student}, {"passed", s.passed}, {"failed", s.failed}, {"skipped", s.skipped},
                    {"of", s.of}, {"seconds", s.seconds}, {"ignored", s.ignored}, {"wrote", s.wrote},
                    {"lessons", json::object()}};
    for (std::size_t l = 0; l < s.lessons.size(); ++l) {
      const StudentLesson& lesson = s.lessons[l];
      for (int value : {lesson.passed, lesson.failed, lesson.skipped, static_cast<int>(lesson.checks.size())})
        row.push_back(std::to_string(value));
      row.push_back(lesson.state);
      json checks = json::array();
      for (const std::string& speed : speed_checks[l]) {
        std::string value;
        for (const Record& r : lesson.records)
          if (r.check == speed) value = speed_cell(r);
        row.push_back(value);
      }
      for (const Record& r : lesson.records) {
        json check = {{"check", r.check}, {"status", r.status.empty() ? "NOT RUN" : r.status},
                      {"measured", r.measured}, {"required", r.required}, {"detail", r.detail}};
        if (r.figure) check["figure"] = *r.figure;
        if (r.minimum) check["minimum"] = *r.minimum;
        if (!r.unit.empty()) check["unit"] = r.unit;
        if (r.seconds) check["seconds"] = *r.seconds;
        checks.push_back(check);
      }
      student["lessons"][lesson.slug] = {{"state", lesson.state}, {"passed", lesson.passed}, {"failed", lesson.failed},
                                         {"skipped", lesson.skipped}, {"of", lesson.checks.size()},
                                         {"used", lesson.used}, {"not_sent", lesson.not_sent}, {"checks", checks}};
      if (lesson.state == "does not compile")
        student["lessons"][lesson.slug]["compile_error"] = {{"where", lesson.build.measured}, {"error", lesson.build.detail}};
    }
    for (int value : {s.passed, s.failed, s.skipped, s.of}) row.push_back(std::to_string(value));
    row.push_back(number(s.seconds));
    std::string flags;
    json flag_list = json::array();
    for (const Finding& f : s.flags) {
      flags += (flags.empty() ? "" : "; ") + f.where() + " " + f.what;
      flag_list.push_back({{"file", f.file}, {"line", f.line}, {"what", f.what}});
    }
    row.push_back(flags);
    student["flags"] = flag_list;
    std::string ignored;
    for (const std::string& file : s.ignored) ignored += (ignored.empty() ? "" : " ") + file;
    row.push_back(ignored);
    for (std::size_t i = 0; i < row.size(); ++i) csv << (i ? "," : "") << csv_field(row[i]);
    csv << "\n";
    book["students"].push_back(student);
    std::ofstream(out / "reports" / (s.student + ".md")) << report(s);
  }
  std::ofstream(out / "gradebook.json") << book.dump(2) << "\n";
}

}  // namespace runner
