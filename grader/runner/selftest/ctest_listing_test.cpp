// The kept CTest listing (ctest_listing.h): CTest runs again whenever a test script under the
// test folder, a file a test's command names (a test program's stamp of its checks in its place,
// where it has one), or the command itself changes, and only then. A pretend CTest (a shell
// script) prints a note and the JSON list, and counts its runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "ctest_listing.h"

namespace {

namespace fs = std::filesystem;

class CTestListing : public testing::Test {
 protected:
  void SetUp() override {
    // A folder of each check's own: CTest runs the two at once.
    dir = fs::path(testing::TempDir()) /
          ("stepwise-ctest-listing-" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir);
    fs::create_directories(dir / "tests" / "CMakeFiles");
    append(dir / "tests" / "CTestTestfile.cmake", "add_test(a)\n");
    append(dir / "program", "version 1\n");
    // The list names the program by path, as CMake 4's launch script does (-D TEST_EXECUTABLE=...).
    append(dir / "ctest",
           "#!/bin/sh\necho run >> " + (dir / "runs").string() + "\necho 'a note before the list'\n"
           "echo '{\"kind\": \"ctestInfo\", \"tests\": [{\"name\": \"a\", \"command\": [\"cmake\", \"-DTEST_EXECUTABLE=" +
               (dir / "program").string() + "\"]}]}'\n");
    fs::permissions(dir / "ctest", fs::perms::owner_all);
  }
  static void append(const fs::path& file, const std::string& text) { std::ofstream(file, std::ios::app) << text; }
  std::string list(const std::string& extra = "") {
    std::vector<std::string> args{(dir / "ctest").string(), "--test-dir", (dir / "tests").string()};
    if (!extra.empty()) args.push_back(extra);
    return runner::ctest_listing(args, dir / "tests", dir / "kept");
  }
  int runs() const {
    std::ifstream in(dir / "runs");
    int count = 0;
    for (std::string line; std::getline(in, line);) ++count;
    return count;
  }
  fs::path dir;
};

TEST_F(CTestListing, KeptUntilWhatItWasMadeFromChanges) {
  const std::string first = list();
  EXPECT_EQ(first.rfind("{\"kind\": \"ctestInfo\"", 0), 0u) << "the note before the JSON is left out: " << first;
  EXPECT_EQ(runs(), 1);
  EXPECT_EQ(list(), first);
  EXPECT_EQ(runs(), 1) << "nothing changed: the kept list, without running CTest";

  append(dir / "program", "version 2\n");  // a test program built again
  EXPECT_EQ(list(), first);
  EXPECT_EQ(runs(), 2);
  append(dir / "tests" / "CTestTestfile.cmake", "add_test(b)\n");  // the build configured again
  list();
  EXPECT_EQ(runs(), 3);
  append(dir / "tests" / "lesson-tests[1]_tests.cmake", "add_test(c)\n");  // a new script under the folder
  list();
  EXPECT_EQ(runs(), 4);
  list("-L");  // another selection
  EXPECT_EQ(runs(), 5);
  list();
  EXPECT_EQ(runs(), 5) << "each selection keeps its own list";

  append(dir / "tests" / "CMakeFiles" / "x.cmake", "build internals\n");  // the build's own files
  list();
  EXPECT_EQ(runs(), 5);
}

TEST_F(CTestListing, AProgramWithAStampOfItsChecksCountsByTheStamp) {
  append(dir / "program.checks", "");  // cmake/AddLesson.cmake's stamp beside the test program
  const std::string first = list();
  EXPECT_EQ(runs(), 1);
  append(dir / "program", "version 2\n");  // linked again with the student's new code
  EXPECT_EQ(list(), first);
  EXPECT_EQ(runs(), 1) << "the program's checks did not change: the kept list";
  append(dir / "program.checks", "touched\n");  // the checks built again
  list();
  EXPECT_EQ(runs(), 2);
  fs::remove(dir / "program.checks");  // no stamp (a build before it): the program itself counts
  list();
  EXPECT_EQ(runs(), 3);
  append(dir / "program", "version 3\n");
  list();
  EXPECT_EQ(runs(), 4);
}

TEST_F(CTestListing, NoJsonListIsAnErrorAndNothingIsKept) {
  std::ofstream(dir / "ctest") << "#!/bin/sh\necho 'CTest could not read the folder'\n";
  EXPECT_THROW(list(), std::runtime_error);
  EXPECT_FALSE(fs::exists(dir / "kept")) << "nothing to keep";
}

}  // namespace
