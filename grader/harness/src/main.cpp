// The main() of every grader test program: GoogleTest, the lesson's sanitizer checks, and the
// recorder that writes one result record per check for the summary table.
#include <gtest/gtest.h>
#include <malloc.h>

#include <climits>

#include "grader/sanitizer.h"
#include "grader/shared_run.h"
#include "grader/trace.h"

namespace grader {
testing::TestEventListener* make_recorder();
}

int main(int argc, char** argv) {
  // Host memory freed by one check is reused by the next, not given back to the system: the checks
  // allocate and drop host vectors of 128 MiB and more (a standard size of 2^25 values), and each
  // fresh one costs 70-85 ms of page faults on an H100 machine, which made a lesson's correctness
  // checks up to 44% slower (lesson 00: 5.5 s, 3.1 s so). The process's memory stays at its peak.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
  testing::InitGoogleTest(&argc, argv);
  grader::register_sanitizer_checks();
  // Before the recorder: its end-of-check work must see the check's record written.
  testing::UnitTest::GetInstance()->listeners().Append(grader::make_shared_run_listener());
  testing::UnitTest::GetInstance()->listeners().Append(grader::make_recorder());
  grader::install_trick_listener();
  return RUN_ALL_TESTS();
}
