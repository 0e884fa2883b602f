#pragma once
// Everything a lesson's grader tests use. A typical correctness check:
//
//   TEST(VectorAdd, MatchesCpuAtEverySize) {
//     REQUIRE_GPU();
//     for (int n : grader::standard_sizes(3 * sizeof(float))) {
//       SCOPED_TRACE("n = " + std::to_string(n));
//       auto a = grader::random_floats(n, -1, 1), b = grader::random_floats(n, -1, 1);
//       grader::Output<float> out(n);            // poisoned, with a guard past the end
//       vector_add(device(a), device(b), out.data(), n);
//       EXPECT_TRUE(grader::matches(expected, out, grader::Tolerance::ulps(1)));
//     }
//   }
#include <gtest/gtest.h>

#include "grader/compare.h"
#include "grader/gpu.h"
#include "grader/inputs.h"
#include "grader/speed.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
