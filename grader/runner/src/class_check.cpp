#include "class_check.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <thread>
#include <vector>

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

// Runs `program --gtest_filter=<check>` in its own process group in `folder`; at the time limit
// the whole group is killed, and so is anything it left running when it ended.
Ended run_limited(const ClassCheck& c) {
  const auto start = std::chrono::steady_clock::now();
  const std::string filter = "--gtest_filter=" + c.check;
  const pid_t child = fork();
  if (child == 0) {
    setpgid(0, 0);
    if (chdir(c.scratch.c_str()) != 0) _exit(126);
    const rlimit no_core{0, 0}, file_size{rlim_t{1} << 30, rlim_t{1} << 30};  // no core dumps; files < 1 GiB
    setrlimit(RLIMIT_CORE, &no_core);
    setrlimit(RLIMIT_FSIZE, &file_size);
    execl(c.program.c_str(), c.program.c_str(), filter.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  Ended ended;
  if (child < 0) {
    ended.status = 127 << 8;
    return ended;
  }
  setpgid(child, child);
  const auto deadline = start + std::chrono::seconds(c.time_limit);
  for (;;) {
    const pid_t done = waitpid(child, &ended.status, WNOHANG);
    if (done == child) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      ended.timed_out = true;
      kill(-child, SIGKILL);
      waitpid(child, &ended.status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(-child, SIGKILL);  // anything the check started and left behind
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

}  // namespace

int run_class_check(const ClassCheck& c) {
  const std::string device =
      allocated_device(std::getenv("CTEST_RESOURCE_GROUP_0_GPUS"), std::getenv("CUDA_VISIBLE_DEVICES"));
  if (!device.empty()) setenv("CUDA_VISIBLE_DEVICES", device.c_str(), 1);
  fs::create_directories(c.scratch);
  const fs::path own = c.scratch.parent_path() / "records" / (c.lesson + "__" + c.check + "." + std::to_string(getpid()));
  fs::remove_all(own);
  fs::create_directories(own);
  setenv("STEPWISE_RESULTS_DIR", own.c_str(), 1);

  const Ended ended = run_limited(c);

  Record record;
  bool found = false;
  for (const Record& r : load_records(own))
    if (r.lesson == c.lesson && r.check == c.check && !ended.timed_out) {
      record = r;
      found = true;
    }
  std::error_code ignored;
  fs::remove_all(own, ignored);
  if (!found) {
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
