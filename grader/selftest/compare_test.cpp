// Self-tests of the comparison helpers: a check must be able to fail, and say why.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "grader/compare.h"
#include "grader/cpu_parallel.h"

namespace {

using grader::Tolerance;

TEST(CompareUlps, CountsFloatSpacings) {
  EXPECT_EQ(grader::ulp_error(1.0, 1.0f), 0.0);
  EXPECT_EQ(grader::ulp_error(1.0, std::nextafter(1.0f, 2.0f)), 1.0);
  EXPECT_EQ(grader::ulp_error(1.0, std::nextafter(std::nextafter(1.0f, 0.0f), 0.0f)), 1.0);  // spacing below 1 is half
  EXPECT_NEAR(grader::ulp_error(1.0 + 0x1p-24, 1.0f), 0.5, 1e-12);  // a correctly rounded value
  EXPECT_EQ(grader::ulp_error(0x1p-149, 0x1p-148f), 1.0);           // subnormals
}

TEST(CompareUlps, SpecialValuesMatchOnlyThemselves) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  EXPECT_EQ(grader::ulp_error(inf, INFINITY), 0.0);
  EXPECT_EQ(grader::ulp_error(nan, NAN), 0.0);
  EXPECT_TRUE(std::isinf(grader::ulp_error(inf, -INFINITY)));
  EXPECT_TRUE(std::isinf(grader::ulp_error(1.0, NAN)));
  EXPECT_TRUE(std::isinf(grader::ulp_error(nan, 1.0f)));
}

TEST(CompareValues, PassesEqualValuesAndFailsNamingTheFirstMismatches) {
  const std::vector<double> expected = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<bool> written(8, false);
  EXPECT_TRUE(grader::compare(expected, expected, written, Tolerance::exact()));

  std::vector<double> actual = expected;
  actual[3] = 40;
  const testing::AssertionResult result = grader::compare(expected, actual, written, Tolerance::exact());
  ASSERT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("1 of 8 values differ"), std::string::npos) << result.message();
  EXPECT_NE(std::string(result.message()).find("[3] expected 4, got 40"), std::string::npos) << result.message();
}

TEST(CompareValues, SaysWhenAValueWasNeverWritten) {
  const std::vector<double> expected = {1, 2};
  std::vector<bool> never_written = {false, true};
  const testing::AssertionResult result =
      grader::compare(expected, {1, -2.4e-14}, never_written, Tolerance::close(1e-6, 1e-6));
  ASSERT_FALSE(result);
  EXPECT_NE(std::string(result.message()).find("never written"), std::string::npos) << result.message();
}

TEST(CompareValues, AppliesAbsoluteAndRelativeTolerance) {
  const std::vector<bool> written(1, false);
  EXPECT_TRUE(grader::compare({100}, {100.5}, written, Tolerance::close(0, 0.01)));
  EXPECT_FALSE(grader::compare({100}, {102}, written, Tolerance::close(0, 0.01)));
  EXPECT_TRUE(grader::compare({0}, {1e-7}, written, Tolerance::close(1e-6, 0)));
  EXPECT_FALSE(grader::compare({1}, {NAN}, written, Tolerance::close(1, 1)));
}

TEST(CompareValues, PoisonIsRecognised) {
  float poisoned;
  std::memset(&poisoned, grader::kPoisonByte, sizeof poisoned);
  EXPECT_TRUE(grader::is_poison(poisoned));
  EXPECT_FALSE(grader::is_poison(1.0f));
  EXPECT_FALSE(grader::is_poison(0));
}

// Large comparisons run on several threads first (grader::matches' fast path, from 2^16 values):
// their verdict and message must be those of the one-thread loop, the first mismatches in order.
TEST(CompareValues, LargeComparisonsSayWhatSmallOnesSay) {
  const std::size_t n = std::size_t{1} << 18;
  std::vector<double> expected(n);
  for (std::size_t i = 0; i < n; ++i) expected[i] = 1.0 + static_cast<double>(i % 1000);
  std::vector<float> actual(expected.begin(), expected.end());
  EXPECT_TRUE(grader::matches(expected, actual, Tolerance::ulps(0.5)));

  actual[n - 7] += 1;
  actual[5] = 0;
  std::memset(&actual[n / 2], grader::kPoisonByte, sizeof(float));
  const testing::AssertionResult result = grader::matches(expected, actual, Tolerance::ulps(0.5));
  ASSERT_FALSE(result);
  const std::string message = result.message();
  EXPECT_NE(message.find("3 of 262144 values differ"), std::string::npos) << message;
  EXPECT_NE(message.find("1 were never written"), std::string::npos) << message;
  EXPECT_LT(message.find("[5] expected"), message.find("[131072] expected")) << message;
  EXPECT_LT(message.find("[131072] expected"), message.find("[262137] expected")) << message;
}

// Every index of [0, count) once, whatever the count and the least per thread.
TEST(InParallel, CoversEveryIndexOnce) {
  for (std::size_t count : {0, 1, 7, 1000, 100003})
    for (std::size_t least : {1, 16, 1 << 16}) {
      std::vector<int> visits(count, 0);
      grader::in_parallel(count, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) ++visits[i];
      }, least);
      for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(visits[i], 1) << "count " << count << ", least " << least << ", index " << i;
    }
}

}  // namespace
