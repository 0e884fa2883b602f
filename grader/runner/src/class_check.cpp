#include "class_check.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "grader/check_kind.h"
#include "grader/record_name.h"
#include "process.h"
#include "records.h"

namespace runner {

namespace fs = std::filesystem;

std::string allocated_device(const char* group_gpus, const char* visible_devices) {
  if (group_gpus == nullptr) return "";
  const std::string text = group_gpus;
  const std::size_t id = text.find("id:");
  if (id == std::string::npos) return "";
  const std::string index = text.substr(id + 3, text.find(',', id) - id - 3);
  if (visible_devices == nullptr || *visible_devices == '\0') return index;
  std::vector<std::string> visible;
  std::istringstream list(visible_devices);
  for (std::string entry; std::getline(list, entry, ',');) visible.push_back(entry);
  const std::size_t n = static_cast<std::size_t>(std::strtoul(index.c_str(), nullptr, 10));
  return n < visible.size() ? visible[n] : index;
}

namespace {

struct Ended {
  bool timed_out = false;
  int status = 0;  // waitpid's status
  double seconds = 0;
};

// Runs `program --gtest_filter=<check>` in its own process group in `folder` (no core dumps,
// files under 1 GiB), its output passed on; at the time limit the whole group is killed, and so is
// anything it left running when it ended.
Ended run_limited(const ClassCheck& c, const fs::path& report) {
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::seconds(c.time_limit);
  RunEnd end;
  RunOptions options;
  options.dir = c.scratch;
  options.overdue = [&] { return std::chrono::steady_clock::now() >= deadline; };
  options.ends_with_the_program = true;
  options.no_core_dumps = true;
  options.most_file_bytes = std::uint64_t{1} << 30;
  options.ended = &end;
  run_lines({c.program, "--gtest_filter=" + c.check, "--gtest_output=json:" + report.string()},
            [](const std::string& line) { std::cout << line << "\n"; }, options);
  std::cout.flush();
  Ended ended;
  ended.timed_out = end.killed;
  ended.status = end.status;
  ended.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return ended;
}

std::string how_it_ended(const Ended& e, int time_limit) {
  if (e.timed_out)
    return "killed at the time limit of " + std::to_string(time_limit) + " s (a loop or kernel that never ends?)";
  if (WIFSIGNALED(e.status))
    return "crashed (signal " + std::to_string(WTERMSIG(e.status)) + ": " + strsignal(WTERMSIG(e.status)) + ")";
  if (WIFEXITED(e.status) && WEXITSTATUS(e.status) == 127) return "the program could not be started";
  return "ended with exit status " + std::to_string(WIFEXITED(e.status) ? WEXITSTATUS(e.status) : -1) +
         " without a result";
}

std::string outcome_of(const nlohmann::json& test) {
  if (test.contains("failures") && test["failures"].is_array() && !test["failures"].empty()) return "FAIL";
  if (test.value("result", "") == "SKIPPED") return "SKIP";
  if (test.value("status", "") == "RUN" && test.value("result", "COMPLETED") == "COMPLETED") return "PASS";
  return "";
}

}  // namespace

std::string gtest_outcome(const fs::path& report, const std::string& check, std::string& problem) {
  std::ifstream in(report);
  if (!in) {
    problem = "GoogleTest's report of the run is missing: the program did not end through the grader's main";
    return "";
  }
  const nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  std::vector<std::pair<std::string, std::string>> ran;  // check, outcome
  if (!json.is_discarded() && json.is_object() && json.contains("testsuites") && json["testsuites"].is_array())
    for (const nlohmann::json& suite : json["testsuites"]) {
      if (!suite.is_object() || !suite.contains("testsuite") || !suite["testsuite"].is_array()) continue;
      for (const nlohmann::json& test : suite["testsuite"])
        if (test.is_object() && test.value("status", "") == "RUN")
          ran.emplace_back(suite.value("name", "") + "." + test.value("name", ""), outcome_of(test));
    }
  if (ran.size() != 1 || ran.front().first != check) {
    std::string names;
    for (const auto& [name, outcome] : ran) names += (names.empty() ? "" : ", ") + name;
    problem = "GoogleTest's report of the run names " + (ran.empty() ? std::string("no check") : names) +
              ", not exactly " + check;
    return "";
  }
  if (ran.front().second.empty()) problem = "GoogleTest's report of the run gives no outcome of " + check;
  return ran.front().second;
}

std::string verdict_problem(const ClassCheck& c, const std::vector<fs::path>& files, const fs::path& own_record,
                            bool record_found, const std::string& record_status, const std::string& reported,
                            const std::string& report_problem, int exit_status) {
  // Only the check's own record, and for the Sanitizer checks the records of the lesson's checks
  // that its compute-sanitizer run wrote.
  std::vector<std::string> others;
  for (const fs::path& file : files) {
    if (file == own_record) continue;
    const std::string name = file.filename().string();
    const bool sanitizer_run =
        grader::check_kind(c.check) == grader::CheckKind::sanitizer && grader::is_record_of(name, c.lesson);
    if (!sanitizer_run) others.push_back(name);
  }
  if (!others.empty()) {
    std::string names;
    for (const std::string& name : others) names += (names.empty() ? "" : ", ") + name;
    return "refused: the check's private records folder held files it does not write (" + names +
           "): records forged by the code under test?";
  }
  if (!record_found) return "";
  if (!report_problem.empty()) return "refused: a record was written, but " + report_problem;
  if (record_status == "PASS" || record_status == "SKIP") {
    if (reported != record_status)
      return "refused: the record says " + record_status + " but GoogleTest's report of the run says " + reported;
    if (exit_status != 0)
      return "refused: the record says " + record_status + " but the program ended with exit status " +
             std::to_string(exit_status);
  }
  return "";
}

int run_class_check(const ClassCheck& c) {
  const std::string device =
      allocated_device(std::getenv("CTEST_RESOURCE_GROUP_0_GPUS"), std::getenv("CUDA_VISIBLE_DEVICES"));
  if (!device.empty()) setenv("CUDA_VISIBLE_DEVICES", device.c_str(), 1);
  fs::create_directories(c.scratch);
  // A fresh private folder per check, made here (mkdtemp: a new name, empty), not by the code
  // under test: the records folder and the path of GoogleTest's report.
  const fs::path parent = c.scratch.parent_path() / "records";
  fs::create_directories(parent);
  std::string name = (parent / (c.lesson + "__" + c.check + ".XXXXXX")).string();
  for (std::size_t i = parent.string().size() + 1; i < name.size(); ++i)
    if (name[i] == '/') name[i] = '_';
  std::vector<char> folder(name.begin(), name.end());
  folder.push_back('\0');
  if (mkdtemp(folder.data()) == nullptr) throw std::runtime_error("cannot make a folder in " + parent.string());
  const fs::path own = folder.data();
  fs::create_directories(own / "records");
  const fs::path report = own / "gtest.json";
  setenv("STEPWISE_RESULTS_DIR", (own / "records").c_str(), 1);
  std::error_code error;
  const auto started = fs::last_write_time(own / "records", error);  // the file system's clock

  const Ended ended = run_limited(c, report);

  Record record;
  bool found = false;
  const fs::path own_record = record_file(own / "records", c.lesson, c.check);
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(own / "records", error)) files.push_back(entry.path());
  for (const Record& r : load_records(own / "records"))
    if (r.lesson == c.lesson && r.check == c.check && !ended.timed_out) {
      record = r;
      found = true;
    }
  if (found && fs::last_write_time(own_record, error) < started) found = false;  // not written by this run
  std::string report_problem;
  const std::string reported = ended.timed_out ? "" : gtest_outcome(report, c.check, report_problem);
  const int exit_status = WIFEXITED(ended.status) ? WEXITSTATUS(ended.status) : -1;
  const std::string refused = ended.timed_out ? "" : verdict_problem(c, files, own_record, found, record.status, reported,
                                                                    report_problem, exit_status);
  std::error_code ignored;
  fs::remove_all(own, ignored);
  if (!refused.empty()) {
    record = Record{};
    record.lesson = c.lesson;
    record.check = c.check;
    record.status = "FAIL";
    record.detail = refused;
    record.measured = "refused";
  } else if (!found) {
    record = Record{};
    record.lesson = c.lesson;
    record.check = c.check;
    record.status = "FAIL";
    record.detail = how_it_ended(ended, c.time_limit);
    record.measured = ended.timed_out ? "killed at the time limit" : "stopped without a result";
  }
  record.track = "class/" + c.student;
  record.seconds = ended.seconds;
  std::string pattern;
  for (char ch : c.check) pattern += ch == '.' ? std::string("\\.") : std::string(1, ch);
  record.rerun = shell_command({"ctest", "--test-dir", c.scratch.parent_path().string(), "-R",
                               "^" + c.lesson + "/class/" + c.student + "/" + pattern + "$", "--output-on-failure"});
  fs::create_directories(c.results);
  write_record(c.results, record);
  std::cout << "[ stepwise ] " << c.student << " " << c.lesson << " " << c.check << ": " << record.status
            << (record.detail.empty() ? "" : " (" + record.detail.substr(0, record.detail.find('\n')) + ")") << "\n";
  return record.status == "PASS" ? 0 : record.status == "SKIP" ? 77 : 1;
}

}  // namespace runner
