// The runner's report, read from a fixture build folder (records-fixture/) that holds a lesson
// of every kind: done, TODO steps out of order, a FAIL after TODOs, checks skipped without a
// GPU, and no records at all.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "build_step.h"
#include "check_run.h"
#include "course.h"
#include "hints.h"
#include "records.h"
#include "report.h"

namespace fs = std::filesystem;
using namespace runner;

namespace {

class RecordsFixture : public testing::Test {
 protected:
  void SetUp() override {
    fs::current_path(RECORDS_FIXTURE);  // paths in the report are shown relative to here
    course = load_course("stepwise-course.json");
    records = load_records(course.results_dir("exercise"));
  }
  Course course;
  std::vector<Record> records;
};

TEST_F(RecordsFixture, OverviewAndNextNameTheLowestStepOfTheFirstUnfinishedLesson) {
  const Grades grades = summarise(course, "exercise", records);
  EXPECT_EQ(report(course, grades),
            "lesson         passed\n"
            "00-done        2/2    \u2713\n"
            "01-steps       1/4\n"
            "02-failing     0/2\n"
            "03-no-gpu      1/2    1 not run (no GPU)\n"
            "04-not-graded  -      not graded\n"
            "\n"
            "01-steps: 3 of 4 checks to finish\n"
            "  step 1  TODO  Beta.First\n"
            "  step 2  TODO  Gamma.Second\n"
            "  step 3  TODO  Alpha.Third\n"
            "  re-run: bin/stepwise grade 01   (one check in full: ctest --test-dir . --output-on-failure -R CHECK)\n"
            "\n"
            "exercise: 4 of 10 checks pass (1 FAIL, 4 TODO, 1 SKIP)\n"
            "1 check needs a GPU: it was not run (bin/stepwise-doctor says why; docs/setup.md)\n"
            "next: lessons/01-steps/README.md step 1   (hint: bin/stepwise hint 01 1)\n");
  EXPECT_TRUE(grades.unfinished());
}

TEST_F(RecordsFixture, AFailComesBeforeTheTodosBeforeIt) {
  std::vector<Record> without_01;
  for (const Record& r : records)
    if (r.lesson != "01-steps") without_01.push_back(r);
  course.lessons.erase(course.lessons.begin() + 1);
  const std::string text = report(course, summarise(course, "exercise", without_01));
  EXPECT_NE(text.find("02-failing: 2 of 2 checks to finish\n"
                      "          FAIL  Zeta.Wrong: 3 of 100 values differ: [7] expected 7, got 0\n"
                      "                ctest --test-dir FIXTURE -R '^02-failing/exercise/Zeta.Wrong$' --output-on-failure\n"
                      "  step 2  TODO  Alpha.Later\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("next: fix 02-failing Zeta.Wrong (FAIL above), then lessons/02-failing/README.md step 2\n"),
            std::string::npos)
      << text;
}

TEST_F(RecordsFixture, SkippedChecksLeaveTheLessonUnfinishedAndTheSourceNamesTheStep) {
  std::vector<Record> only_03;
  for (const Record& r : records)
    if (r.lesson == "03-no-gpu" || r.lesson == "00-done") only_03.push_back(r);
  course.lessons = {course.lessons[0], course.lessons[3]};
  const Grades grades = summarise(course, "exercise", only_03);
  EXPECT_FALSE(grades.unfinished()) << "a skipped check alone is no failure (exit status 0)";
  const std::string text = report(course, grades);
  EXPECT_NE(text.find("03-no-gpu: 1 of 2 checks to finish\n"
                      "  1 check not run: no NVIDIA driver found, so no GPU can be used here\n"
                      "  steps whose STEPWISE_TODO line is still in the code: 2\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("next: lessons/03-no-gpu/README.md step 2"), std::string::npos) << text;
}

// Without a GPU, a lesson whose steps are all written (no STEPWISE_TODO left, nothing TODO or
// failed) cannot be checked here: next moves on to the next step to write, and says which
// lessons wait for a GPU.
TEST_F(RecordsFixture, ALessonWrittenButWaitingForAGpuIsPassedOver) {
  std::vector<Record> only_03;  // a PASS and a SKIP
  for (const Record& r : records)
    if (r.lesson == "03-no-gpu") only_03.push_back(r);
  course.lessons = {course.lessons[3], course.lessons[1]};
  Grades grades = summarise(course, "exercise", only_03);
  ASSERT_EQ(grades.lessons.front().slug, "03-no-gpu");
  EXPECT_FALSE(grades.lessons.front().waits_for_gpu()) << "its step 2 is still TODO in the code";
  grades.lessons.front().steps_left.clear();  // as if step 2 were written
  EXPECT_TRUE(grades.lessons.front().waits_for_gpu());
  const std::string text = report(course, grades);
  EXPECT_NE(text.find("written, waiting for a GPU to check: 03-no-gpu"), std::string::npos) << text;
  EXPECT_NE(text.find("next: lessons/01-steps/README.md step 1"), std::string::npos) << text;
  // Asked for by name, the lesson shows its own report.
  EXPECT_NE(report(course, grades, "03-no-gpu").find("03-no-gpu: 1 of 2 checks to finish"), std::string::npos);
  grades.lessons.pop_back();  // nothing else left: every step written
  EXPECT_NE(report(course, grades).find("next: every step is written; run the grader on a machine with a GPU"),
            std::string::npos);
}

// In a lesson still being written, the steps written whose checks could not run wait for a GPU
// too: next names the step still to write, and the waiting line names the written ones.
TEST_F(RecordsFixture, AWrittenStepOfAnUnfinishedLessonWaitsForAGpu) {
  std::vector<Record> only_01;  // README steps 1 and 2; STEPWISE_TODO(1) and (3) left in steps.cu
  for (Record r : records) {
    if (r.lesson != "01-steps") continue;
    if (r.check == "Gamma.Second") {  // step 2, written: without a GPU its check is skipped
      r.status = "SKIP";
      r.step = 0;
      r.detail = "no NVIDIA driver found, so no GPU can be used here";
    }
    only_01.push_back(r);
  }
  course.lessons = {course.lessons[1]};
  Grades grades = summarise(course, "exercise", only_01);
  ASSERT_EQ(grades.lessons[0].slug, "01-steps");
  EXPECT_EQ(grades.lessons[0].steps_waiting_for_gpu(), std::set<int>{2});
  const std::string text = report(course, grades);
  EXPECT_NE(text.find("written, waiting for a GPU to check: 01-steps step 2\n"
                      "next: lessons/01-steps/README.md step 1 "),
            std::string::npos)
      << text;
  grades.lessons[0].failed = 1;  // a failed check: nothing counts as written
  EXPECT_EQ(report(course, grades).find("waiting for a GPU"), std::string::npos);
}

// On a GPU with too little memory for a check (grader::allocate_if_it_fits: n = INT_MAX), that
// check's SKIP is no step left to do: the lesson is done here, and the report says what was not run.
TEST_F(RecordsFixture, ACheckTooBigForThisGpuLeavesTheLessonDone) {
  std::vector<Record> only_03;  // a PASS and a SKIP
  for (Record r : records) {
    if (r.lesson != "03-no-gpu") continue;
    if (r.status == "SKIP") {
      r.gpu_too_small = true;
      r.detail = "n = INT_MAX needs 25769.8 MB of device memory, more than 3/4 of this GPU's 8192.0 MB: not run here";
    }
    only_03.push_back(r);
  }
  course.lessons = {course.lessons[3], course.lessons[1]};
  Grades grades = summarise(course, "exercise", only_03);
  grades.lessons.front().steps_left.clear();  // every step written
  ASSERT_EQ(grades.lessons.front().too_small, 1);
  EXPECT_TRUE(grades.lessons.front().done());
  EXPECT_FALSE(grades.lessons.front().waits_for_gpu());
  EXPECT_TRUE(grades.lessons.front().steps_waiting_for_gpu().empty());
  const std::string text = report(course, grades);
  EXPECT_NE(text.find("03-no-gpu  1/2    \u2713 (1 too big for this GPU)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("1 check needs more device memory than this GPU has: not run here"), std::string::npos) << text;
  EXPECT_EQ(text.find("needs a GPU"), std::string::npos) << text;
  EXPECT_EQ(text.find("waiting for a GPU"), std::string::npos) << text;
  EXPECT_NE(text.find("next: lessons/01-steps/README.md step 1"), std::string::npos) << text;
  // The field survives the runner's rewrite of a record.
  const fs::path dir = fs::temp_directory_path() / "stepwise-too-small-record";
  fs::remove_all(dir);
  write_record(dir, only_03.back().status == "SKIP" ? only_03.back() : only_03.front());
  const std::vector<Record> read = load_records(dir);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_TRUE(read[0].gpu_too_small);
  fs::remove_all(dir);
}

TEST_F(RecordsFixture, NoRecordsAtAllIsUnfinishedAndSaysSo) {
  const Grades grades = summarise(course, "exercise", {});
  EXPECT_TRUE(grades.unfinished());
  EXPECT_NE(report(course, grades).find("next: nothing was graded yet: bin/stepwise grade\n"), std::string::npos);
}

TEST_F(RecordsFixture, TheTableShowsEveryCheckAndAFailsReason) {
  const std::string text = table(course, summarise(course, "exercise", records));
  EXPECT_NE(text.find("02-failing  Zeta.Wrong     FAIL    3 values wrong"), std::string::npos) << text;
  EXPECT_NE(text.find("    -> 3 of 100 values differ: [7] expected 7, got 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Kernel.Runs    SKIP    not run: no NVIDIA driver found"), std::string::npos) << text;
  EXPECT_NE(text.find("exercise: 10 checks: 4 PASS, 1 FAIL, 4 TODO, 1 SKIP\n"), std::string::npos) << text;
}

TEST_F(RecordsFixture, LessonsAreFoundByNumberOrName) {
  for (const char* name : {"1", "01", "01-steps", "steps"}) {
    ASSERT_NE(course.find(name), nullptr) << name;
    EXPECT_EQ(course.find(name)->slug, "01-steps");
  }
  EXPECT_EQ(course.find("7"), nullptr);
}

TEST_F(RecordsFixture, StepsLeftAreTheCodeLinesNotTheComments) {
  EXPECT_EQ(steps_left("lessons/01-steps"), (std::set<int>{1, 3}));
  EXPECT_TRUE(steps_left("lessons/does-not-exist").empty());
}

TEST_F(RecordsFixture, HintsOfAStepAreItsSectionAndTheHintsNamingIt) {
  const std::string readme =
      "## Steps\n\n### Step 1 — the first thing\n\nRead it.\n\n### Step 2 — the second thing\n\nWrite it.\n\n"
      "## Hints\n\n- **Step 1.** For step 1.\n- **All steps.** General,\n  two lines.\n"
      "- **Step 2.** Step 2 needs this.\n- **Step 12.** Not step 1.\n- **Step 2.** And this,\n  after step 1.\n"
      "- A bullet of no step, naming step 2.\n\n## Run\n\n- **Step 2.** Not a hint: outside Hints.\n";
  // A step: its heading and text, then its own hints in the README's order, then the general ones.
  EXPECT_EQ(hints(readme, 2),
            "Step 2 — the second thing\n\nWrite it.\n\nHints:\n- **Step 2.** Step 2 needs this.\n"
            "- **Step 2.** And this,\n  after step 1.\n- **All steps.** General,\n  two lines.\n");
  // "**Step 1.**" is not the start of "**Step 12.**"; a bullet that only names a step in its text
  // is not that step's hint.
  EXPECT_EQ(hints(readme, 1),
            "Step 1 — the first thing\n\nRead it.\n\nHints:\n- **Step 1.** For step 1.\n"
            "- **All steps.** General,\n  two lines.\n");
  // No step: every bullet of the Hints section, as written.
  EXPECT_EQ(hints(readme, 0),
            "- **Step 1.** For step 1.\n- **All steps.** General,\n  two lines.\n- **Step 2.** Step 2 needs this.\n"
            "- **Step 12.** Not step 1.\n- **Step 2.** And this,\n  after step 1.\n"
            "- A bullet of no step, naming step 2.\n");
  // A step without hints of its own still gets the general ones.
  EXPECT_EQ(hints("### Step 3 — last\n\nDo it.\n\n## Hints\n\n- **All steps.** Read the README.\n", 3),
            "Step 3 — last\n\nDo it.\n\nHints:\n- **All steps.** Read the README.\n");
  EXPECT_EQ(hints("# No hints here\n", 0), "");
  EXPECT_EQ(hints("### Step 1 — a\n\n# No hints here\n", 1), "");
  // The steps a README has, from its "### Step N" headings (the hint command lists them).
  EXPECT_EQ(readme_steps(readme), (std::vector<int>{1, 2}));
  EXPECT_EQ(readme_steps("### Step 1 — a\n#### Step 9 — not a step\nStep 4\n### Step 3 — c\n"), (std::vector<int>{1, 3}));
  EXPECT_TRUE(readme_steps("# No steps\n").empty());
}

TEST(FirstError, GccNvccAndTheLinkerAreUnderstood) {
  std::string where, what;
  find_first_error("[ 50%] Building CXX object x.o\n/src/lessons/01-a/a.cpp:4:3: error: expected ';' before 'return'\n"
                   "/src/lessons/01-a/a.cpp:9:1: error: later\n",
                   "/src", where, what);
  EXPECT_EQ(where, "lessons/01-a/a.cpp:4");
  EXPECT_EQ(what, "lessons/01-a/a.cpp:4: error: expected ';' before 'return'");
  find_first_error("/src/lessons/03-m/m.cu(25): error: expected a \";\"\n", "/src/", where, what);
  EXPECT_EQ(what, "lessons/03-m/m.cu:25: error: expected a \";\"");
  find_first_error("/usr/bin/ld: m.o: in function `f':\nm.cu:(.text+0x1): undefined reference to `g()'\n", "/src",
                   where, what);
  EXPECT_EQ(what, "link error: undefined reference to `g()'");
  find_first_error("gmake: *** [Makefile:1: all] Error 2\n", "/src", where, what);
  EXPECT_EQ(what, "");
}

TEST(Records, AStepIsReadFromATodosDetail) {
  EXPECT_EQ(step_named_in("not implemented yet: lessons/00-hello-gpu/README.md step 12"), 12);
  EXPECT_EQ(step_named_in("3 of 9 values differ"), 0);
}

}  // namespace

// CMake 4 runs each discovered GoogleTest check through a script; the runner needs the program's
// own command line to run several checks of it in one process (the H100 machine's CMake 4.4 did
// this, and every check then ran in a process of its own).
TEST(ProgramCommand, CMake4sLaunchScriptBecomesTheProgramsCommand) {
  const std::vector<std::string> launched{"/usr/bin/cmake", "-D", "TEST_EXECUTABLE=/b/bin/lesson00-tests", "-D",
                                          "TEST_EXECUTOR=", "-D", "TEST_FILTER=Suite.Check", "-D",
                                          "TEST_XML_OUTPUT=", "-D", "TEST_EXTRA_ARGS=", "-P",
                                          "/usr/share/cmake-4.4/Modules/GoogleTest/LaunchTest.cmake"};
  EXPECT_EQ(runner::program_command(launched),
            (std::vector<std::string>{"/b/bin/lesson00-tests", "--gtest_filter=Suite.Check", "--gtest_also_run_disabled_tests"}));
  const std::vector<std::string> with_executor{"cmake", "-DTEST_EXECUTABLE=/b/t", "-DTEST_EXECUTOR=wine;--quiet",
                                               "-DTEST_FILTER=A.B", "-DTEST_EXTRA_ARGS=--x;--y", "-P", "LaunchTest.cmake"};
  EXPECT_EQ(runner::program_command(with_executor),
            (std::vector<std::string>{"wine", "--quiet", "/b/t", "--gtest_filter=A.B", "--gtest_also_run_disabled_tests", "--x", "--y"}));
  const std::vector<std::string> direct{"/b/bin/lesson00-tests", "--gtest_filter=Suite.Check", "--gtest_also_run_disabled_tests"};
  EXPECT_EQ(runner::program_command(direct), direct);  // CMake 3: unchanged
  const std::vector<std::string> other{"cmake", "-DPROGRAM=/b/t", "-P", "expect_failure.cmake"};
  EXPECT_EQ(runner::program_command(other), other);
}
