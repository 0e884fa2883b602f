#pragma once
// Everything a lesson's grader tests use. A typical correctness check (lesson 01's):
//
//   TEST(VectorAdd, OneThreadPerElementMatchesCpu) {
//     for (int n : grader::standard_sizes(3 * sizeof(float))) {
//       SCOPED_TRACE("n = " + std::to_string(n));
//       const std::vector<float> a = grader::random_floats(n, -1000, 1000), b = grader::random_floats(n, -1000, 1000);
//       auto d_a = grader::device(a), d_b = grader::device(b);
//       grader::Output<float> out(n);            // poisoned, with a guard past the end
//       vector_add(d_a.data(), d_b.data(), out.data(), n);
//       EXPECT_TRUE(grader::matches(exact_sums(a, b), out, grader::Tolerance::ulps(0.5)));
//     }
//   }
//
// A check's suite name says what it needs (grader/check_kind.h): TEST below makes every check a
// grader::Check, which skips a GPU check where there is no GPU, so no check says REQUIRE_GPU().
// (GoogleTest lets only a test skip itself, not a listener: hence a base class. A TEST_F or TEST_P
// fixture must derive from grader::Check to get the same.)
// Speed checks: see grader/speed.h. Sanitizer checks are added to every lesson: grader/sanitizer.h.
#include <gtest/gtest.h>

#include "grader/check_stream.h"
#include "grader/compare.h"
#include "grader/gpu.h"
#include "grader/inputs.h"
#include "grader/pinned_host.h"
#include "grader/sample.h"
#include "grader/shared_run.h"
#include "grader/speed.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"

// A lesson's TEST(Suite, Name) is a grader::Check (grader/gpu.h): GoogleTest's TEST with that base.
#undef TEST
#define TEST(test_suite_name, test_name) \
  GTEST_TEST_(test_suite_name, test_name, ::grader::Check, ::testing::internal::GetTypeId<::grader::Check>())
