#include "grader/sanitizer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <regex>
#include <sstream>
#include <string>

#include "grader/check_kind.h"
#include "grader/gpu.h"
#include "grader/identity.h"
#include "grader/inputs.h"

namespace grader {
namespace {

constexpr int kSanitizerErrorExit = 86;  // compute-sanitizer's exit status when it found errors

// compute-sanitizer: STEPWISE_COMPUTE_SANITIZER, else next to the nvcc this was built with, else
// on PATH. Empty when there is none.
std::string find_compute_sanitizer() {
  if (const char* named = std::getenv("STEPWISE_COMPUTE_SANITIZER")) return named;
  namespace fs = std::filesystem;
  std::error_code ignored;
  const fs::path beside_nvcc = fs::path(STEPWISE_CUDA_BIN_DIR) / "compute-sanitizer";
  if (fs::exists(beside_nvcc, ignored)) return beside_nvcc.string();
  if (const char* path = std::getenv("PATH")) {
    std::istringstream folders(path);
    std::string folder;
    while (std::getline(folders, folder, ':'))
      if (!folder.empty() && fs::exists(fs::path(folder) / "compute-sanitizer", ignored))
        return (fs::path(folder) / "compute-sanitizer").string();
  }
  return "";
}

std::string this_program() {
  std::array<char, 4096> path{};
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  return length > 0 ? std::string(path.data(), static_cast<std::size_t>(length)) : "";
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command` through the shell and returns its exit status and everything it printed.
int run_and_capture(const std::string& command, std::string& output) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>&1").c_str(), "r"), pclose);
  if (!pipe) return -1;
  std::array<char, 4096> chunk{};
  std::size_t got = 0;
  while ((got = std::fread(chunk.data(), 1, chunk.size(), pipe.get())) > 0) output.append(chunk.data(), got);
  const int status = pclose(pipe.release());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string tool_title(const std::string& tool) {
  std::string title = tool;
  if (!title.empty()) title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
  return title;
}

// A grader::Check like the lesson's own: its suite, Sanitizer, says it needs the GPU.
class SanitizerCheck : public Check {
 public:
  explicit SanitizerCheck(std::string tool) : tool_(std::move(tool)) {}

  void TestBody() override {
    const std::string sanitizer = find_compute_sanitizer();
    if (sanitizer.empty())
      GTEST_SKIP() << "compute-sanitizer is not installed: it ships in the CUDA toolkit's bin folder "
                      "(minimal installs: the cuda-sanitizer package of your CUDA version, e.g. "
                      "cuda-sanitizer-13-0); STEPWISE_COMPUTE_SANITIZER=<path> names it";
    // The lesson's GPU correctness checks, small sizes, the same random seed; the variable that
    // says "under compute-sanitizer" names the tool (sanitizer_tool()). One hardware work queue
    // (CUDA_DEVICE_MAX_CONNECTIONS=1): the driver starts one process's CUDA context at a time, and
    // with one queue rather than 8 that start is quicker (on the H100 machine, 8 compute-sanitizer
    // runs started together took 0.9 s, not 1.8-2.3 s). Nothing is traced or timed under the
    // sanitizer, and its tools look inside each kernel, not at how streams overlap.
    const std::string filter = kCorrectnessChecksFilter;
    const std::string command = "STEPWISE_UNDER_SANITIZER=" + tool_ + " STEPWISE_SEED=" + std::to_string(seed()) +
                                " CUDA_DEVICE_MAX_CONNECTIONS=1 " + quoted(sanitizer) + " --tool " + tool_ + " --error-exitcode " +
                                std::to_string(kSanitizerErrorExit) + " --print-limit 20 --report-api-errors no " +
                                quoted(this_program()) + " --gtest_filter=" + quoted(filter);
    std::string output;
    const int status = run_and_capture(command, output);
    const SanitizerReport report = read_sanitizer_output(output);
    if (report.errors > 0)
      FAIL() << "compute-sanitizer --tool " << tool_ << " found " << report.errors << " error(s)"
             << (report.warnings > 0 ? " and " + std::to_string(report.warnings) + " warning(s)" : std::string())
             << "; the first: " << report.first_error << "\n  run it yourself: " << command;
    if (report.warnings > 0)
      FAIL() << "compute-sanitizer --tool " << tool_ << " found " << report.warnings << " hazard warning(s) (a "
             << "race it cannot prove harmless, e.g. threads of a warp sharing __shared__ memory without "
             << "__syncwarp()); the first: " << report.first_warning << "\n  run it yourself: " << command;
    if (status == kSanitizerErrorExit)
      FAIL() << "compute-sanitizer --tool " << tool_ << " reported errors, in a form the grader could not read:\n"
             << output.substr(0, 2000) << "\n  run it yourself: " << command;
    const std::size_t todo = output.find("not implemented yet:");
    if (todo != std::string::npos)
      FAIL() << output.substr(todo, output.find_first_of("\"\n", todo) - todo);
    // GoogleTest's closing line, not only its opening one: code that ends the process early
    // (exit(0) in the middle of the checks) must not pass for a clean run.
    static const std::regex finished(R"(\[==========\] [0-9]+ tests? from [0-9]+ test suites? ran)");
    if (!std::regex_search(output, finished))
      FAIL() << "the checks did not run to their end under compute-sanitizer (exit status " << status
             << "): did the code end the process?\n" << output.substr(0, 2000);
    if (status != 0 && status != 1)  // 1: some checks failed, which their own rows report
      FAIL() << "the checks crashed under compute-sanitizer (exit status " << status << ")\n  run it yourself: "
             << command;
  }

 private:
  std::string tool_;
};

}  // namespace

SanitizerReport read_sanitizer_output(const std::string& output) {
  SanitizerReport report;
  static const std::regex summary(R"(========= (ERROR|RACECHECK) SUMMARY: ([0-9]+) (error|hazard))");
  static const std::regex racecheck_errors(
      R"(RACECHECK SUMMARY: [0-9]+ hazards? displayed \(([0-9]+) errors?, ([0-9]+) warnings?\))");
  std::smatch match;
  if (std::regex_search(output, match, racecheck_errors)) {
    report.errors = std::stoi(match[1]);
    report.warnings = std::stoi(match[2]);
  } else if (std::regex_search(output, match, summary)) {
    report.errors = std::stoi(match[2]);
  }
  // The first error: its line ("========= Invalid __global__ write ...", "========= Error: Race
  // reported ...", "========= Barrier error ...") and the location line after it; and the first
  // hazard warning ("========= Warning: Race reported ...") likewise. Older compute-sanitizers
  // write the word in capitals ("ERROR: Race reported", "WARNING: Race reported").
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("========= ", 0) != 0 || line.size() < 11 || line[10] == ' ') continue;
    const std::string text = line.substr(10);
    if (text.rfind("COMPUTE-SANITIZER", 0) == 0 || text.find("SUMMARY") != std::string::npos ||
        text.rfind("Program hit", 0) == 0 || text.rfind("Saved host", 0) == 0)
      continue;
    std::string word = text.substr(0, 7);
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool warning = word == "warning";
    const bool hazard = text.find("Race") != std::string::npos || text.find("hazard") != std::string::npos;
    if (warning && !hazard) continue;  // e.g. a note about the tool itself
    std::string& first = warning ? report.first_warning : report.first_error;
    if (!first.empty()) continue;
    first = text;
    if (std::getline(lines, line)) {
      const std::size_t at = line.find("at ");
      if (at != std::string::npos) first += " " + line.substr(at);
    }
    if (!report.first_error.empty() && (!report.first_warning.empty() || report.warnings == 0)) break;
  }
  return report;
}

std::string sanitizer_tool() {
  const char* tool = std::getenv("STEPWISE_UNDER_SANITIZER");
  return under_sanitizer() && tool != nullptr ? tool : "";
}

bool under_race_or_sync_check() {
  const std::string tool = sanitizer_tool();
  return tool == "racecheck" || tool == "synccheck";
}

void register_sanitizer_checks() {
  if (under_sanitizer()) return;  // the inner run grades nothing of its own
  std::istringstream tools(sanitizers());
  std::string tool;
  while (std::getline(tools, tool, ',')) {
    if (tool.empty()) continue;
    testing::RegisterTest("Sanitizer", tool_title(tool).c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [tool]() -> testing::Test* { return new SanitizerCheck(tool); });
  }
}

}  // namespace grader
