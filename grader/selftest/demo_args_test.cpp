// Self-tests of the demos' command-line helpers: good arguments are read, bad ones are refused
// with a message that names the argument. Then every lesson's demo program itself (the exercise's,
// STEPWISE_DEMO_PROGRAMS, set in grader/CMakeLists.txt), run on the CPU from another working
// directory: --help lists each option with its default and exits 0, a bad argument prints an
// error and the usage line and exits 2, all before any GPU is looked for.
#include <gtest/gtest.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
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
  EXPECT_EQ(refusal([&] { flags.values(2); }), "--output needs 2 value(s)\nusage: demo");
  EXPECT_EQ(flags.values(1), std::vector<std::string>{"a.png"});
  EXPECT_FALSE(flags.next());
}

TEST(DemoArguments, UnknownFlagIsRefusedWithTheUsage) {
  std::vector<std::string> words = {"demo", "--sise", "3x3"};
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  // The help's first line is the usage line; the lines after it are not repeated in errors.
  stepwise::Flags flags(static_cast<int>(argv.size()), argv.data(), "usage: demo [--size WxH]\n  --size WxH  ...");
  ASSERT_TRUE(flags.next());
  EXPECT_EQ(refusal([&] { flags.unknown(); }), "unknown option '--sise'\nusage: demo [--size WxH]");
  ASSERT_TRUE(flags.next());
  EXPECT_EQ(refusal([&] { flags.unknown(); }), "unexpected argument '3x3'\nusage: demo [--size WxH]");
}

TEST(DemoArguments, PositionalArgumentsRefuseOptionsAndExtraWords) {
  std::vector<std::string> words = {"demo", "20", "-8"};
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  EXPECT_EQ(stepwise::positional_arguments(3, argv.data(), 2), (std::vector<std::string>{"20", "-8"}));
  EXPECT_EQ(refusal([&] { stepwise::positional_arguments(3, argv.data(), 1); }),
            "too many arguments: takes at most 1, got '-8' as number 2");
  words[2] = "--sise";
  argv[2] = words[2].data();
  EXPECT_EQ(refusal([&] { stepwise::positional_arguments(3, argv.data(), 2); }), "unknown option '--sise'");
}

TEST(DemoArguments, HelpTextGivesEachOptionItsDefault) {
  EXPECT_EQ(stepwise::help_text("usage: demo [--n N] [--output FILE]",
                                {{"--n N", "elements", "20"}, {"--output FILE", "written", "out.png"}}),
            "usage: demo [--n N] [--output FILE]\n"
            "  --n N          elements (default: 20)\n"
            "  --output FILE  written (default: out.png)\n"
            "  -h, --help     print this help and exit");
  EXPECT_EQ(stepwise::number_text(-2), "-2");
  EXPECT_EQ(stepwise::number_text(0.5), "0.5");
}

TEST(DemoArguments, CourseFilesAreFoundFromAnyWorkingDirectory) {
  const std::filesystem::path image = stepwise::course_file("assets/test-image.png");
  EXPECT_TRUE(image.is_absolute()) << image;
  EXPECT_TRUE(std::filesystem::exists(image)) << image;
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
  EXPECT_EQ(run([] { stepwise::parse_integer("many", "n", 1, 10); }).status, 2);
  EXPECT_EQ(run([] { throw std::invalid_argument("--region needs MIN_X < MAX_X"); }).status, 2);
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
  const std::string help = "usage: lesson00-demo [n]\n  n  elements (default: 20)";
  const int status = stepwise::run_demo(3, argv.data(), help, [&] { ran = true; });
  EXPECT_EQ(testing::internal::GetCapturedStdout(), help + "\n");
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(ran);
  testing::internal::CaptureStderr();
  EXPECT_EQ(stepwise::run_demo(2, argv.data(), help, [&] { stepwise::parse_integer("x", "n", 1, 10); }), 2);
  // The usage line only, not the whole help.
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "error: n must be a whole number from 1 to 10, got 'x'\nusage: lesson00-demo [n]\n");
}

}  // namespace

namespace {

// Every lesson's demo program, as the build names them (grader/CMakeLists.txt).
std::vector<std::string> demo_programs() {
  std::vector<std::string> programs;
#ifdef STEPWISE_DEMO_PROGRAMS
  std::stringstream list(STEPWISE_DEMO_PROGRAMS);
  for (std::string program; std::getline(list, program, '|');) programs.push_back(program);
#endif
  return programs;
}

std::string quoted(const std::string& word) {
  std::string text = "'";
  for (char c : word) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return text + "'";
}

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A demo run from a working directory of its own (not the build folder, not the course's).
struct ProgramRun {
  int status = -1;
  std::string out, err;
};
ProgramRun run_program(const std::string& program, const std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  // A folder of this process's own: CTest runs these checks in parallel, each in a process.
  const fs::path folder = fs::path(testing::TempDir()) / ("stepwise-demo-args-" + std::to_string(getpid()));
  fs::create_directories(folder);
  std::string command = "cd " + quoted(folder.string()) + " && " + quoted(program);
  for (const std::string& arg : args) command += " " + quoted(arg);
  command += " >" + quoted((folder / "out.txt").string()) + " 2>" + quoted((folder / "err.txt").string());
  const int raw = std::system(command.c_str());
  ProgramRun run;
  run.status = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  run.out = read_all(folder / "out.txt");
  run.err = read_all(folder / "err.txt");
  std::error_code ignored;
  fs::remove_all(folder, ignored);
  return run;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The options of a usage line, "usage: lesson03-demo [--size WIDTHxHEIGHT] [--output FILE]":
// what is in each pair of brackets.
std::vector<std::string> usage_options(const std::string& usage) {
  std::vector<std::string> options;
  const std::regex bracketed(R"(\[([^\]]+)\])");
  for (auto it = std::sregex_iterator(usage.begin(), usage.end(), bracketed); it != std::sregex_iterator(); ++it)
    options.push_back((*it)[1]);
  return options;
}

// The help's line for `option` ("  --size N    what (default: 1000)"), or "".
std::string help_line(const std::string& help, const std::string& option) {
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("  " + option + "  ", 0) == 0) return line;
  return "";
}

// grader/CMakeLists.txt lists one demo per lesson of STEPWISE_LESSONS.
TEST(DemoPrograms, EveryLessonHasItsDemoHere) {
  const std::vector<std::string> programs = demo_programs();
  EXPECT_GE(programs.size(), 14u) << "STEPWISE_DEMO_PROGRAMS: " << testing::PrintToString(programs);
  for (const std::string& program : programs)
    EXPECT_TRUE(std::regex_match(std::filesystem::path(program).filename().string(), std::regex("lesson[0-9][0-9]-demo")))
        << program;
}

TEST(DemoPrograms, HelpListsEveryOptionWithItsDefaultAndExitsZero) {
  for (const std::string& program : demo_programs()) {
    SCOPED_TRACE(program);
    const std::string name = std::filesystem::path(program).filename().string();
    const ProgramRun run = run_program(program, {"--help"});
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(run.err, "");
    const std::string usage = first_line(run.out);
    EXPECT_EQ(usage.rfind("usage: " + name + " ", 0), 0u) << run.out;
    const std::vector<std::string> options = usage_options(usage);
    EXPECT_FALSE(options.empty()) << usage;
    for (const std::string& option : options) {
      const std::string line = help_line(run.out, option);
      EXPECT_NE(line, "") << "--help has no line for " << option << ":\n" << run.out;
      EXPECT_NE(line.find("(default: "), std::string::npos) << "no default in: " << line;
    }
    EXPECT_NE(help_line(run.out, "-h, --help"), "") << run.out;
    EXPECT_EQ(run_program(program, {"-h"}).out, run.out);
  }
}

// The first option of the usage line with `value` for each of its values: "--size many",
// "--region many many many many", or (a positional argument) "many".
std::vector<std::string> first_option_with(const std::string& usage, const std::string& value) {
  std::istringstream words(usage_options(usage).at(0));
  std::vector<std::string> args;
  for (std::string word; words >> word;) args.push_back(word.rfind("--", 0) == 0 ? word : value);
  return args;
}

TEST(DemoPrograms, ABadArgumentPrintsTheErrorAndTheUsageLineAndExitsTwo) {
  for (const std::string& program : demo_programs()) {
    SCOPED_TRACE(program);
    const std::string usage = first_line(run_program(program, {"--help"}).out);
    std::vector<std::vector<std::string>> bad = {{"--no-such-option"},
                                                 first_option_with(usage, "not-a-number"),
                                                 first_option_with(usage, "-5")};
    const std::string first = usage_options(usage).at(0);
    if (first.rfind("--", 0) == 0) bad.push_back({first.substr(0, first.find(' '))});  // its value left out
    for (const std::vector<std::string>& args : bad) {
      const ProgramRun run = run_program(program, args);
      EXPECT_EQ(run.status, 2) << testing::PrintToString(args) << "\n" << run.err;
      EXPECT_EQ(run.out, "") << testing::PrintToString(args);
      EXPECT_EQ(run.err.rfind("error: ", 0), 0u) << testing::PrintToString(args) << "\n" << run.err;
      // One error line, then the usage line, and nothing else.
      const std::size_t end_of_error = run.err.find('\n');
      EXPECT_EQ(run.err.substr(end_of_error + 1), usage + "\n") << testing::PrintToString(args) << "\n" << run.err;
    }
  }
}

// Lesson 11 reads assets/test-image.png by default: the course's, whatever the working directory.
TEST(DemoPrograms, Lesson11FindsItsDefaultImageFromAnotherWorkingDirectory) {
  std::string program;
  for (const std::string& p : demo_programs())
    if (std::filesystem::path(p).filename().string().rfind("lesson11-demo", 0) == 0) program = p;
  ASSERT_NE(program, "");
  const ProgramRun help = run_program(program, {"--help"});
  ASSERT_EQ(help.status, 0) << help.err;
  const std::string line = help_line(help.out, "--input FILE");
  const std::smatch found = [&] {
    std::smatch m;
    std::regex_search(line, m, std::regex(R"(\(default: (.+)\)$)"));
    return m;
  }();
  ASSERT_EQ(found.size(), 2u) << line;
  const std::filesystem::path image = found[1].str();
  EXPECT_TRUE(image.is_absolute()) << image;
  EXPECT_TRUE(std::filesystem::exists(image)) << image;
  EXPECT_EQ(image.filename(), "test-image.png");
  // A file that is not there is a bad argument too.
  const ProgramRun missing = run_program(program, {"--input", "no-such-image.png"});
  EXPECT_EQ(missing.status, 2) << missing.err;
  EXPECT_NE(missing.err.find("cannot read image 'no-such-image.png'"), std::string::npos) << missing.err;
}

}  // namespace
