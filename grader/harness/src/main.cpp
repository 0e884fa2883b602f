// The main() of every grader test program: GoogleTest, the lesson's sanitizer checks, and the
// recorder that writes one result record per check for the summary table.
#include <gtest/gtest.h>

#include "grader/sanitizer.h"
#include "grader/shared_run.h"
#include "grader/trace.h"

namespace grader {
testing::TestEventListener* make_recorder();
}

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  grader::register_sanitizer_checks();
  // Before the recorder: its end-of-check work must see the check's record written.
  testing::UnitTest::GetInstance()->listeners().Append(grader::make_shared_run_listener());
  testing::UnitTest::GetInstance()->listeners().Append(grader::make_recorder());
  grader::install_trick_listener();
  return RUN_ALL_TESTS();
}
