#pragma once
// Running the checks of some lessons with CTest, quietly: the records say what each found.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "course.h"
#include "records.h"

namespace runner {

// Called as checks finish: how many of `total` are done, and the check now running.
using Progress = std::function<void(int done, int total, const std::string& check)>;

// A check's record from an earlier run, and when it was written.
struct EarlierRecord {
  Record record;
  std::filesystem::file_time_type written;
};
// The records in `dir` of the lessons named, before a new run removes them: a TODO one may be
// kept (below), and each says how long its check ran, which spreads the next run's checks evenly.
std::vector<EarlierRecord> earlier_records(const std::filesystem::path& dir, const std::vector<std::string>& lessons);

// A GoogleTest check's CTest command as the program's own command line: unchanged where CTest runs
// the program (CMake < 4: [executor...] program --gtest_filter=<check> ...); rewritten to that form
// where CMake 4's gtest_discover_tests runs it through a script (cmake -D TEST_EXECUTABLE=<program>
// -D TEST_EXECUTOR=<...> -D TEST_FILTER=<check> -D TEST_EXTRA_ARGS=<...> -P .../LaunchTest.cmake),
// so that the checks of one program can share a process (--gtest_filter=A:B:C) on either.
std::vector<std::string> program_command(const std::vector<std::string>& ctest_command);

// Runs the checks of `track` of the lessons named (by slug): a lesson program's checks share a
// process (grader/shared_run.h), or a few processes where the earlier run's times say its checks
// would otherwise keep the others waiting, the processes side by side, longest first. A check that ended without writing
// its record (crashed, timed out, not built) gets a FAIL record saying so. A check whose earlier
// record says TODO and whose program was not built again since keeps that record without running:
// the same program stops at the same step still to write (only a new build can change that).
// Returns the number of checks that ended. Checks carrying one of the `skip` labels (e.g. speed,
// sanitizer) are left out.
int run_checks(const Course& course, const std::string& track, const std::vector<std::string>& lessons,
               const std::vector<std::string>& skip, const Progress& progress,
               const std::vector<EarlierRecord>& earlier = {});

}  // namespace runner
