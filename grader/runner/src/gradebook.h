#pragma once
// The gradebook of a graded class, made from the class build's manifests and check lists and the
// students' result records:
//   gradebook.csv   one row per student: per lesson passed, failed, skipped, of, state and each
//                   speed check's figure; then the totals, the flags and the files ignored
//   gradebook.json  the same, with every check's record
//   reports/<id>.md each check's result, measured figure and minimum, every FAIL's message, the
//                   compiler's first error lines, the flags, the files used, not sent and ignored
#include <filesystem>
#include <string>
#include <vector>

#include "records.h"
#include "source_scan.h"

namespace runner {

struct StudentLesson {
  std::string slug;
  std::string state;                // graded, does not compile, missing, not run, incomplete
  std::vector<std::string> checks;  // the lesson's checks (the course's list)
  std::vector<Record> records;      // in the order of `checks`; status "" where none was written
  Record build;                     // the Build record of a lesson that does not compile
  int passed = 0, failed = 0, skipped = 0, not_run = 0;
  std::vector<std::string> used, not_sent;
};

struct StudentGrades {
  std::string student;
  std::vector<StudentLesson> lessons;
  std::vector<std::string> ignored, wrote;
  std::vector<Finding> flags;       // the source scan of every file graded (source_scan.h)
  int passed = 0, failed = 0, skipped = 0, of = 0;
  double seconds = 0;
};

// A lesson's checks from the class build's list (checks/<NN-slug>.txt: "<Suite.Test> <labels>").
std::vector<std::string> listed_checks(const std::filesystem::path& list_file);
bool is_speed_check(const std::string& check);
// A speed check's gradebook cell: its figure when it passed, else its status.
std::string speed_cell(const Record& record);

// One student's grades: the class build folder, the student's records folder, the lessons.
StudentGrades student_grades(const std::filesystem::path& class_build, const std::filesystem::path& results,
                             const std::string& student, const std::vector<std::string>& lessons);

// Writes gradebook.csv, gradebook.json and reports/ into `out`.
void write_gradebook(const std::filesystem::path& out, const std::vector<std::string>& lessons,
                     const std::filesystem::path& class_build, const std::vector<StudentGrades>& students);

}  // namespace runner
