// Self-tests of the demos' command-line helpers: good arguments are read, bad ones are refused
// with a message that names the argument.
#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "stepwise/demo.h"
#include "stepwise/image.h"

namespace {

// The message of the std::invalid_argument that `parse` throws, or "" when it throws nothing.
template <typename Parse>
std::string refusal(Parse parse) {
  try {
    parse();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(DemoArguments, SizeIsWidthByHeight) {
  const stepwise::Size2 size = stepwise::parse_size("1536x1024", "--size", 8192);
  EXPECT_EQ(size.width, 1536);
  EXPECT_EQ(size.height, 1024);
  EXPECT_NE(refusal([] { stepwise::parse_size("1536", "--size", 8192); }).find("--size must be WIDTHxHEIGHT"), std::string::npos);
  EXPECT_NE(refusal([] { stepwise::parse_size("0x5", "--size", 8192); }).find("--size's width must be a whole number from 1 to 8192"), std::string::npos);
  EXPECT_NE(refusal([] { stepwise::parse_size("5x9000", "--size", 8192); }).find("--size's height"), std::string::npos);
}

TEST(DemoArguments, FlagsAreReadInOrderWithTheirValues) {
  std::vector<std::string> words = {"demo", "--point", "30", "101", "--output", "a.png"};
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  stepwise::Flags flags(static_cast<int>(argv.size()), argv.data(), "usage: demo");
  ASSERT_TRUE(flags.next());
  EXPECT_TRUE(flags.is("--point"));
  EXPECT_EQ(flags.values(2), (std::vector<std::string>{"30", "101"}));
  ASSERT_TRUE(flags.next());
  EXPECT_TRUE(flags.is("--output"));
  EXPECT_NE(refusal([&] { flags.values(2); }).find("--output needs 2 value(s); usage: demo"), std::string::npos);
  EXPECT_EQ(flags.values(1), std::vector<std::string>{"a.png"});
  EXPECT_FALSE(flags.next());
}

TEST(DemoArguments, UnknownFlagIsRefusedWithTheUsage) {
  std::vector<std::string> words = {"demo", "--sise", "3x3"};
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  stepwise::Flags flags(static_cast<int>(argv.size()), argv.data(), "usage: demo [--size WxH]");
  ASSERT_TRUE(flags.next());
  EXPECT_EQ(refusal([&] { flags.unknown(); }), "unknown argument '--sise'; usage: demo [--size WxH]");
}

}  // namespace

namespace {

// The exit status and what run_demo printed on stdout.
struct DemoRun {
  int status;
  std::string out;
};
template <typename Body>
DemoRun run(Body body) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int status = stepwise::run_demo(body);
  testing::internal::GetCapturedStderr();
  return {status, testing::internal::GetCapturedStdout()};
}

TEST(DemoArguments, HelpPrintsTheUsageAndExitsZero) {
  std::vector<std::string> words{"lesson03-demo", "--size", "8x8", "--help"};
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  const DemoRun flags = run([&] {
    stepwise::Flags flags(static_cast<int>(argv.size()), argv.data(), "usage: lesson03-demo [--size WxH]");
    while (flags.next()) {
      if (!flags.is("--size")) flags.unknown();
      flags.values(1);
    }
  });
  EXPECT_EQ(flags.status, 0);
  EXPECT_EQ(flags.out, "usage: lesson03-demo [--size WxH]\n");
  // A positional demo (lesson00-demo 20 8) answers --help too, pointing at where its usage is.
  const DemoRun positional = run([] { stepwise::parse_integer("--help", "n", 1, 10); });
  EXPECT_EQ(positional.status, 0);
  EXPECT_NE(positional.out.find("usage: see the comment at the top of"), std::string::npos) << positional.out;
}

TEST(DemoArguments, ABadArgumentIsReportedBeforeAnyGpuIsLookedFor) {
  // Without a GPU (as on the CPU machines that run this), any other error would give 77.
  EXPECT_EQ(run([] { stepwise::parse_integer("many", "n", 1, 10); }).status, 64);
  EXPECT_EQ(run([] { throw std::invalid_argument("--region needs MIN_X < MAX_X"); }).status, 64);
}

TEST(DemoArguments, AnOutputFileIsCheckedWithoutBeingCreated) {
  const std::string path = testing::TempDir() + "stepwise-demo-output.png";
  std::remove(path.c_str());
  stepwise::require_writable(path);
  std::FILE* file = std::fopen(path.c_str(), "rb");
  EXPECT_EQ(file, nullptr) << "require_writable created " << path;
  if (file != nullptr) std::fclose(file);
  EXPECT_NE(refusal([] { stepwise::require_writable("/no/such/folder/out.png"); }), "");
}

}  // namespace

namespace {

TEST(DemoArguments, ADemoWithAUsageLineAnswersHelpBeforeItsBodyRuns) {
  std::vector<std::string> words{"lesson00-demo", "20", "-h"};
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  bool ran = false;
  testing::internal::CaptureStdout();
  const int status = stepwise::run_demo(3, argv.data(), "usage: lesson00-demo [n]", [&] { ran = true; });
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "usage: lesson00-demo [n]\n");
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(ran);
  testing::internal::CaptureStderr();
  EXPECT_EQ(stepwise::run_demo(2, argv.data(), "usage: lesson00-demo [n]",
                               [&] { stepwise::parse_integer("x", "n", 1, 10); }),
            64);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("got 'x'\nusage: lesson00-demo [n]"), std::string::npos);
}

}  // namespace
