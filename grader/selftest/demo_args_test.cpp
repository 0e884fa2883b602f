// Self-tests of the demos' command-line helpers: good arguments are read, bad ones are refused
// with a message that names the argument.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "stepwise/demo.h"

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
