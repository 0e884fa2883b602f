// Self-tests of the error messages a student sees first: CUDA errors, unfinished steps and bad
// arguments.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "stepwise/arguments.h"
#include "stepwise/check.h"
#include "stepwise/cuda_error.h"
#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace {

TEST(ErrorMessages, CudaCheckNamesTheCallFileAndLine) {
  try {
    CUDA_CHECK(cudaErrorInvalidValue);
    FAIL() << "CUDA_CHECK did not throw";
  } catch (const stepwise::CudaError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.code(), cudaErrorInvalidValue);
    EXPECT_NE(message.find("cudaErrorInvalidValue failed at"), std::string::npos) << message;
    EXPECT_NE(message.find("check_test.cpp:"), std::string::npos) << message;
  }
}

TEST(ErrorMessages, InvalidConfigurationComesWithAFix) {
  EXPECT_NE(stepwise::fix_hint(cudaErrorInvalidConfiguration).find("1024 threads per block"), std::string::npos);
}

TEST(ErrorMessages, UnfinishedStepNamesTheReadme) {
  try {
    STEPWISE_TODO(3);
  } catch (const stepwise::NotImplemented& e) {
    EXPECT_STREQ(e.what(), "not implemented yet: lessons/99-selftest/README.md step 3");
  }
}

TEST(ErrorMessages, ArgumentBelowItsLeastNamesFunctionArgumentAndValue) {
  EXPECT_NO_THROW(stepwise::require_at_least(1, 1, "chunks", "transform_pipelined"));
  try {
    stepwise::require_at_least(-3, 0, "n", "reduce_atomic");
    FAIL() << "require_at_least did not throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "reduce_atomic: n must be >= 0, got -3");
  }
}

}  // namespace
