// Self-tests of the requirements file: the format an instructor edits, and its errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "grader/requirements.h"

namespace {

class RequirementsFile : public testing::Test {
 protected:
  void write(const std::string& text) {
    path_ = std::filesystem::temp_directory_path() / ("stepwise-requirements-" + std::to_string(::getpid()) + ".txt");
    std::ofstream(path_) << text;
    setenv("STEPWISE_REQUIREMENTS", path_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("STEPWISE_REQUIREMENTS");
    unsetenv("STEPWISE_SPEED_SCALE");
    std::filesystem::remove(path_);
  }
  std::filesystem::path path_;
};

TEST_F(RequirementsFile, ReadsMinimumAndMeaning) {
  write("# comment\n\n01-vector-add/VectorAddSpeed.GridStride   0.5   x copy bandwidth   # trailing comment\n02-elementwise-exp/ExpSpeed.Accurate 0.4 x copy bandwidth\n");
  const grader::Requirement found = grader::requirement("01-vector-add/VectorAddSpeed.GridStride");
  EXPECT_DOUBLE_EQ(found.minimum, 0.5);
  EXPECT_EQ(found.meaning, "x copy bandwidth");
  EXPECT_EQ(found.describe(), ">= 0.5 x copy bandwidth");
}

TEST_F(RequirementsFile, ScaleFactorMultipliesEveryMinimum) {
  write("01-vector-add/VectorAddSpeed.GridStride 0.5 x copy bandwidth\n");
  setenv("STEPWISE_SPEED_SCALE", "0.5", 1);
  EXPECT_DOUBLE_EQ(grader::requirement("01-vector-add/VectorAddSpeed.GridStride").minimum, 0.25);
  setenv("STEPWISE_SPEED_SCALE", "fast", 1);
  EXPECT_THROW(grader::requirement("01-vector-add/VectorAddSpeed.GridStride"), std::runtime_error);
}

TEST_F(RequirementsFile, MissingKeyAndMalformedLineAreClearErrors) {
  write("01-vector-add/VectorAddSpeed.GridStride 0.5 x copy bandwidth\n02-elementwise-exp/ExpSpeed.Accurate lots\n");
  EXPECT_THROW(grader::requirement("01-vector-add/VectorAddSpeed.GridStride"), std::runtime_error);  // the bad line is after it
  try {
    grader::requirement("03-mandelbrot/MandelbrotSpeed.GridStride");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(":2:"), std::string::npos) << e.what();  // the bad line
  }
  write("01-vector-add/VectorAddSpeed.GridStride 0.5 x copy bandwidth\n");
  try {
    grader::requirement("03-mandelbrot/MandelbrotSpeed.GridStride");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no requirement '03-mandelbrot/MandelbrotSpeed.GridStride'"), std::string::npos) << e.what();
  }
}

TEST(RequirementsShipped, EveryLineOfTheCoursesFileParses) {
  unsetenv("STEPWISE_REQUIREMENTS");
  // A key that cannot exist makes requirement() read the whole file, so a malformed line throws
  // its own message (with the line number) instead of "no requirement".
  try {
    grader::requirement("no-such-lesson/NoSpeed.Check");
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no requirement"), std::string::npos) << e.what();
  }
}

}  // namespace
