#pragma once
// What the student reads after grading: an overview of every lesson, the unfinished checks of the
// first unfinished lesson, and one `next:` line; or the full table of every check.
#include <set>
#include <string>
#include <vector>

#include "course.h"
#include "records.h"

namespace runner {

struct LessonState {
  std::string slug;
  std::vector<Record> records;  // sorted: failures first, then TODO by step, then the rest
  std::set<int> steps_left;     // STEPWISE_TODO(N) lines still in the exercise
  std::set<int> steps;          // the README's steps ("### Step N"; exercise track)
  int passed = 0, failed = 0, todo = 0, skipped = 0;
  int too_small = 0;  // of the skipped: checks that need more device memory than this GPU has
  // The record saying the lesson did not compile, or nullptr.
  const Record* build_failure() const {
    for (const Record& r : records)
      if (r.check == kBuildCheck && r.status == "FAIL") return &r;
    return nullptr;
  }

  int total() const { return static_cast<int>(records.size()); }
  // Every check passed, or could never run on this GPU (too little memory): nothing left to do here.
  bool done() const { return passed > 0 && passed + too_small == total(); }
  // Written as far as this machine can tell (nothing failed or TODO, no STEPWISE_TODO line left),
  // but some checks could not run here: they wait for a GPU.
  bool waits_for_gpu() const { return total() > 0 && failed == 0 && todo == 0 && skipped > too_small && steps_left.empty(); }
  // In a lesson still being written: the steps written (STEPWISE_TODO line gone, no check of the
  // step TODO) while nothing failed and some checks could not run here; they wait for a GPU.
  std::set<int> steps_waiting_for_gpu() const;
};

struct Grades {
  std::string track;
  std::vector<LessonState> lessons;  // reading order; lessons with records but not in the course last
  int passed = 0, failed = 0, todo = 0, skipped = 0;
  int too_small = 0;  // of the skipped: checks that need more device memory than this GPU has
  int total() const { return passed + failed + todo + skipped; }
  bool unfinished() const { return failed + todo > 0 || total() == 0; }
  const LessonState* next() const;   // the first lesson not done (skipped checks count as not done)
};

// Groups `records` by lesson, in the course's order. For the exercise track, the lessons' sources
// are read for the steps still marked STEPWISE_TODO.
Grades summarise(const Course& course, const std::string& track, std::vector<Record> records);

// The short report: overview, the next lesson's unfinished checks, the counts, `next:`. With
// `only`, the overview and the unfinished checks are that lesson's.
std::string report(const Course& course, const Grades& grades, const std::string& only = "");
// The `next:` line (and the GPU note) alone.
std::string next_line(const Course& course, const Grades& grades);
// One row per check: lesson, check, result, measured, required; a FAIL's reason under its row.
std::string table(const Course& course, const Grades& grades);

}  // namespace runner
