#pragma once
// Running the checks of some lessons with CTest, quietly: the records say what each found.
#include <functional>
#include <string>
#include <vector>

#include "course.h"

namespace runner {

// Called as checks finish: how many of `total` are done, and the check now running.
using Progress = std::function<void(int done, int total, const std::string& check)>;

// Runs the checks of `track` of the lessons named (by slug), in parallel where CTest may. A
// check that ended without writing its record (crashed, timed out, not built) gets a FAIL
// record saying so. Returns the number of checks run.
// Checks carrying one of the `skip` labels (e.g. speed, sanitizer) are left out.
int run_checks(const Course& course, const std::string& track, const std::vector<std::string>& lessons,
               const std::vector<std::string>& skip, const Progress& progress);

}  // namespace runner
