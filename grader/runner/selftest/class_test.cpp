// The parts of class grading that need no GPU and no build: one check run by class-check (a crash,
// a hang killed with what it started, a program that writes another check's record), the GPU a
// CTest allocation names, and the resource spec of the GPUs present.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "class_check.h"
#include "class_grading.h"
#include "gradebook.h"
#include "records.h"
#include "student_manifest.h"

namespace fs = std::filesystem;
using namespace runner;

namespace {

// What a test program's GoogleTest writes at its end (--gtest_output=json:<file>, the script's $2)
// for VectorAdd.Matches with `result` (COMPLETED or SKIPPED) and `failures` failures.
std::string gtest_report(const std::string& result, int failures = 0) {
  std::string list;
  for (int i = 0; i < failures; ++i) list += std::string(i ? "," : "") + "{\"failure\": \"wrong\"}";
  return "printf '%s' '{\"testsuites\": [{\"name\": \"VectorAdd\", \"testsuite\": [{\"name\": \"Matches\", "
         "\"status\": \"RUN\", \"result\": \"" + result + "\", \"failures\": [" + list + "]}]}]}' > \"${2#--gtest_output=json:}\"\n";
}

std::string own_record(const std::string& status) {
  return "echo '{\"lesson\": \"01-vector-add\", \"check\": \"VectorAdd.Matches\", \"status\": \"" + status +
         "\", \"detail\": \"no GPU\"}' > \"$STEPWISE_RESULTS_DIR/01-vector-add__VectorAdd.Matches.json\"\n";
}

// A "test program" that is a shell script, in a fresh folder; returns the check to run it as.
ClassCheck script_check(const std::string& name, const std::string& body) {
  const fs::path dir = fs::temp_directory_path() / ("stepwise-class-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "student" / "scratch");
  const fs::path program = dir / "program.sh";
  std::ofstream(program) << "#!/bin/sh\n" << body << "\n";
  fs::permissions(program, fs::perms::owner_all);
  ClassCheck check;
  check.program = program;
  check.results = dir / "results";
  check.scratch = dir / "student" / "scratch";
  check.lesson = "01-vector-add";
  check.student = "sam";
  check.check = "VectorAdd.Matches";
  check.time_limit = 2;
  return check;
}

// Removes a script_check's folder when the test ends.
struct Cleanup {
  const ClassCheck& check;
  ~Cleanup() {
    std::error_code ignored;
    fs::remove_all(check.program.parent_path(), ignored);
  }
};

Record only_record(const ClassCheck& check) {
  const std::vector<Record> records = load_records(check.results);
  EXPECT_EQ(records.size(), 1u);
  return records.empty() ? Record{} : records.front();
}

// The process a check's script started in the background (its pid in child.pid, written in the
// scratch folder: it ran there) is gone, or a zombie, shortly after the check.
void expect_background_process_gone(const ClassCheck& check) {
  int child = 0;
  std::ifstream(check.scratch / "child.pid") >> child;
  ASSERT_GT(child, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::string state;
  std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
  std::string pid, name;
  stat >> pid >> name >> state;
  EXPECT_TRUE(state.empty() || state == "Z") << "the background process still runs: " << state;
}

// A student's folder of the class build holding `manifest` as its manifest.json.
fs::path student_folder(const std::string& name, const std::string& manifest) {
  const fs::path dir = fs::temp_directory_path() / ("stepwise-manifest-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "manifest.json") << manifest;
  return dir;
}

// As grader/class/student/CMakeLists.txt writes it: one lesson sent, one not.
const std::string kManifest = R"({
  "ignored" : [ "notes.txt" ],
  "lessons" : {
    "00-hello-gpu" : { "not_sent" : [], "program" : "/b/students/ada/bin/lesson00-tests", "state" : "sent",
                       "target" : "lesson00-tests-ada", "used" : [ "lessons/00-hello-gpu/hello_gpu.cu" ] },
    "01-vector-add" : { "not_sent" : [ "lessons/01-vector-add/vector_add.cu" ], "state" : "missing", "used" : [] }
  },
  "results" : "/out/results/ada", "scratch" : "/b/students/ada/scratch", "student" : "ada"
})";

}  // namespace

TEST(StudentManifest, ReadsWhatTheClassBuildWrites) {
  const StudentManifest m = read_student_manifest(student_folder("good", kManifest));
  EXPECT_EQ(m.student, "ada");
  EXPECT_EQ(m.ignored, std::vector<std::string>{"notes.txt"});
  ASSERT_EQ(m.lessons.size(), 2u);
  const StudentManifest::Lesson& sent = m.lesson("00-hello-gpu");
  EXPECT_TRUE(sent.sent);
  EXPECT_EQ(sent.target, "lesson00-tests-ada");
  EXPECT_EQ(sent.program, "/b/students/ada/bin/lesson00-tests");
  EXPECT_EQ(sent.used, std::vector<std::string>{"lessons/00-hello-gpu/hello_gpu.cu"});
  EXPECT_FALSE(m.lesson("01-vector-add").sent);
  EXPECT_EQ(m.lesson("01-vector-add").not_sent, std::vector<std::string>{"lessons/01-vector-add/vector_add.cu"});
  EXPECT_FALSE(m.lesson("02-elementwise-exp").sent);  // not named: not sent
}

// A manifest cut short, of another shape, or absent stops the command with the file's name: a
// student is never graded (all "missing") from part of one.
TEST(StudentManifest, AMalformedOrMissingManifestIsAnErrorNamingTheFile) {
  const auto error_of = [](const fs::path& folder) -> std::string {
    try {
      read_student_manifest(folder);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  };
  const fs::path cut = student_folder("cut", kManifest.substr(0, kManifest.size() / 2));
  EXPECT_NE(error_of(cut).find((cut / "manifest.json").string() + " is not a student manifest"), std::string::npos) << error_of(cut);
  std::string state = kManifest;
  state.replace(state.find("\"missing\""), 9, "\"lost\"");
  EXPECT_NE(error_of(student_folder("state", state)).find("lesson 01-vector-add: \"state\" is \"lost\""), std::string::npos)
      << error_of(student_folder("state", state));
  std::string no_program = kManifest;
  no_program.replace(no_program.find("\"program\""), 10, "\"programme\"");
  EXPECT_NE(error_of(student_folder("program", no_program)).find("lesson 00-hello-gpu: \"program\" is not a string"),
            std::string::npos);
  const fs::path none = student_folder("none", "");
  fs::remove(none / "manifest.json");
  EXPECT_NE(error_of(none).find("no student manifest " + (none / "manifest.json").string()), std::string::npos) << error_of(none);
}

// A failed speed check's figure may time skipped work (its output was wrong): the gradebook shows
// FAIL, not a number that reads as a speed.
TEST(Gradebook, ASpeedCellShowsTheFigureOnlyOfAPass) {
  Record record;
  record.figure = 1.65;
  record.status = "PASS";
  EXPECT_EQ(speed_cell(record), "1.65");
  record.status = "FAIL";
  EXPECT_EQ(speed_cell(record), "FAIL");
  record.figure.reset();
  record.status = "SKIP";
  EXPECT_EQ(speed_cell(record), "SKIP");
}

TEST(ClassCheck, ACrashIsTheChecksFail) {
  const ClassCheck check = script_check("crash", "kill -SEGV $$");
  const Cleanup cleanup{check};
  EXPECT_EQ(run_class_check(check), 1);
  const Record r = only_record(check);
  EXPECT_EQ(r.status, "FAIL");
  EXPECT_NE(r.detail.find("crashed (signal 11"), std::string::npos) << r.detail;
  EXPECT_EQ(r.track, "class/sam");
  EXPECT_NE(r.rerun.find("-R '^01-vector-add/class/sam/VectorAdd\\.Matches$'"), std::string::npos) << r.rerun;
}

TEST(ClassCheck, AHangIsKilledAtTheTimeLimitWithWhatItStarted) {
  const ClassCheck check = script_check("hang", "sleep 30 & echo $! > child.pid; sleep 30");
  const Cleanup cleanup{check};
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(run_class_check(check), 1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  const Record r = only_record(check);
  EXPECT_EQ(r.status, "FAIL");
  EXPECT_NE(r.detail.find("killed at the time limit of 2 s"), std::string::npos) << r.detail;
  expect_background_process_gone(check);
}

// A check that ends but leaves a process running, holding its output open, ends when it does
// (not at the time limit), and what it left is killed.
TEST(ClassCheck, WhatAnEndedCheckLeftRunningIsKilledWhenItEnds) {
  const ClassCheck check = script_check("leaves", "sleep 30 & echo $! > child.pid; echo started");
  const Cleanup cleanup{check};
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(run_class_check(check), 1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  const Record r = only_record(check);
  EXPECT_EQ(r.status, "FAIL");
  EXPECT_EQ(r.detail.find("killed at the time limit"), std::string::npos) << r.detail;
  expect_background_process_gone(check);
}

TEST(ClassCheck, ItsOwnRecordIsTakenWhenGoogleTestReportsTheSameOutcome) {
  const ClassCheck check = script_check("own", own_record("SKIP") + gtest_report("SKIPPED"));
  const Cleanup cleanup{check};
  EXPECT_EQ(run_class_check(check), 77);
  const Record r = only_record(check);
  EXPECT_EQ(r.status, "SKIP");
  EXPECT_EQ(r.detail, "no GPU");
}

TEST(ClassCheck, ARecordOfAnotherCheckIsRefusedAsForged) {
  // The program writes its own record, and a forged PASS of another check beside it.
  const ClassCheck check = script_check("records", own_record("SKIP") + gtest_report("SKIPPED") +
      "echo '{\"lesson\": \"01-vector-add\", \"check\": \"VectorAdd.Other\", \"status\": \"PASS\"}'"
      " > \"$STEPWISE_RESULTS_DIR/01-vector-add__VectorAdd.Other.json\"");
  const Cleanup cleanup{check};
  EXPECT_EQ(run_class_check(check), 1);
  const Record r = only_record(check);
  EXPECT_EQ(r.check, "VectorAdd.Matches");
  EXPECT_EQ(r.status, "FAIL");
  EXPECT_NE(r.detail.find("refused: the check's private records folder held files it does not write "
                          "(01-vector-add__VectorAdd.Other.json)"), std::string::npos) << r.detail;
}

TEST(ClassCheck, APassWrittenBeforeMainWithoutGoogleTestsEndIsRefused) {
  // What a constructor that writes a PASS and exits with status 0 leaves: no report of the run.
  const ClassCheck check = script_check("forged", own_record("PASS") + "exit 0");
  const Cleanup cleanup{check};
  EXPECT_EQ(run_class_check(check), 1);
  const Record r = only_record(check);
  EXPECT_EQ(r.status, "FAIL");
  EXPECT_NE(r.detail.find("refused: a record was written, but GoogleTest's report of the run is missing"), std::string::npos)
      << r.detail;
}

TEST(ClassCheck, APassThatGoogleTestReportsAsFailedIsRefused) {
  const ClassCheck check = script_check("disagrees", own_record("PASS") + gtest_report("COMPLETED", 1) + "exit 0");
  const Cleanup cleanup{check};
  EXPECT_EQ(run_class_check(check), 1);
  EXPECT_NE(only_record(check).detail.find("refused: the record says PASS but GoogleTest's report of the run says FAIL"),
            std::string::npos) << only_record(check).detail;
}

TEST(ClassCheck, APassWithAFailingExitStatusIsRefused) {
  const ClassCheck check = script_check("status", own_record("PASS") + gtest_report("COMPLETED") + "exit 3");
  const Cleanup cleanup{check};
  EXPECT_EQ(run_class_check(check), 1);
  EXPECT_NE(only_record(check).detail.find("but the program ended with exit status 3"), std::string::npos)
      << only_record(check).detail;
}

TEST(ClassCheck, AnEarlyExitWithStatusZeroIsAFail) {
  const ClassCheck check = script_check("early", "exit 0");
  const Cleanup cleanup{check};
  EXPECT_EQ(run_class_check(check), 1);
  EXPECT_NE(only_record(check).detail.find("ended with exit status 0 without a result"), std::string::npos)
      << only_record(check).detail;
}

TEST(ClassCheck, TheAllocatedGpuIsCountedAmongTheVisibleOnes) {
  EXPECT_EQ(allocated_device("id:1,slots:4", nullptr), "1");
  EXPECT_EQ(allocated_device("id:1,slots:1", "3,5"), "5");
  EXPECT_EQ(allocated_device("id:0,slots:4", ""), "0");
  EXPECT_EQ(allocated_device(nullptr, "3"), "");
}

TEST(ClassCheck, TheResourceSpecListsEachGpuWithItsShares) {
  const nlohmann::json spec = nlohmann::json::parse(resource_spec(2, 4));
  EXPECT_EQ(spec["version"]["major"], 1);
  const nlohmann::json gpus = spec["local"][0]["gpus"];
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[1]["id"], "1");
  EXPECT_EQ(gpus[1]["slots"], 4);
}
