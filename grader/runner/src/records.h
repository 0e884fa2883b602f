#pragma once
// Result records: one JSON file per check in <build>/results/<track>/, written by the grader's
// test programs (grader/harness/src/results.cpp) and, for what those cannot report (a lesson
// that does not compile, a check that crashed), by the runner in the same shape.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace runner {

struct Record {
  std::string lesson, track, check;  // "03-mandelbrot", "exercise", "Mandelbrot.MatchesCpu"
  std::string status;                // PASS, FAIL, TODO or SKIP
  std::string measured, required, detail, rerun;
  int step = 0;                      // the README step a TODO names ("... step 2"), else 0
  // A speed check's numbers (grader::note_speed): the figure, its minimum, the unit, the key in
  // the requirements file. Kept when a record is written again (a class's gradebook uses them).
  std::optional<double> figure, minimum;
  std::string unit, key, seed, gpu;
  bool gpu_too_small = false;     // a SKIP: needs more device memory than this GPU has
  bool held_gpu_alone = false;    // the check kept every other process off the GPU (a timing)
  bool held_gpu_alone_for_memory = false;  // ... for its device memory only, timing nothing
  std::optional<double> seconds;  // how long the check ran (its program says; a class grading, the whole process)

  bool passed() const { return status == "PASS"; }
};

// The check name of a lesson that did not compile.
inline const char* kBuildCheck = "Build";

// Every record in `dir` (none if it does not exist). A file that is not a record is skipped.
std::vector<Record> load_records(const std::filesystem::path& dir);
// The file of a check's record in `dir`: <lesson>__<check>.json ('/' written as '_').
std::filesystem::path record_file(const std::filesystem::path& dir, const std::string& lesson, const std::string& check);
// Writes `record` where the test programs would have (record_file).
void write_record(const std::filesystem::path& dir, const Record& record);
// Removes one lesson's records, or all of them for an empty lesson.
void remove_records(const std::filesystem::path& dir, const std::string& lesson);

// "not implemented yet: lessons/00-hello-gpu/README.md step 2" -> 2; 0 if no step is named.
int step_named_in(const std::string& text);

}  // namespace runner
