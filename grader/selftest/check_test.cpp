// Self-tests of the error messages a student sees first: CUDA errors and unfinished steps.
#include <gtest/gtest.h>

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

}  // namespace
