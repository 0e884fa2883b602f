#include "grader/results.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "grader/gpu.h"
#include "grader/identity.h"
#include "grader/inputs.h"
#include "grader/record_fields.h"
#include "grader/record_name.h"
#include "grader/shared_run.h"

namespace grader {
namespace {

// The record of the check that is running now.
struct Record {
  double badness = -1;
  std::string measured, required;
  std::string first_failure, todo, skip_reason;
  bool has_speed = false, gpu_too_small = false;
  double figure = 0, minimum = 0;
  std::string unit, key;
};
Record current;


std::string rerun_command(const std::string& check) {
  std::string pattern;
  for (char c : check) {
    if (c == '.') pattern += '\\';
    pattern += c;
  }
  return "ctest --test-dir " STEPWISE_BUILD_DIR " -R '^" + std::string(lesson()) + "/" + track() + "/" +
         pattern + "$' --output-on-failure";
}

// "C++ exception with description "not implemented yet: lessons/...step 2" thrown ..." -> the quote.
std::string todo_in(const std::string& message) {
  const std::size_t start = message.find("not implemented yet:");
  if (start == std::string::npos) return "";
  const std::size_t end = message.find_first_of("\"\n", start);
  return message.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

class Recorder : public testing::EmptyTestEventListener {
  void OnTestStart(const testing::TestInfo&) override { current = Record{}; }

  void OnTestPartResult(const testing::TestPartResult& part) override {
    if (part.skipped()) {
      current.skip_reason = part.message();
    } else if (part.failed()) {
      if (current.first_failure.empty()) current.first_failure = explanation(part.message());
      if (current.todo.empty()) current.todo = todo_in(part.message());
    }
  }

  void OnTestEnd(const testing::TestInfo& test) override {
    const std::string check = check_name(test);
    const testing::TestResult& result = *test.result();
    const char* status = result.Skipped() ? "SKIP" : !result.Failed() ? "PASS" : !current.todo.empty() ? "TODO" : "FAIL";
    const std::string detail = result.Skipped() ? current.skip_reason
                               : !current.todo.empty() ? current.todo
                                                       : current.first_failure.substr(0, 600);
    if (result.Failed()) {
      std::printf("[ stepwise ] random seed %llu (STEPWISE_SEED=%llu repeats this run's inputs)\n",
                  static_cast<unsigned long long>(seed()), static_cast<unsigned long long>(seed()));
      std::printf("[ stepwise ] re-run just this check: %s\n", rerun_command(check).c_str());
    }
    if (under_sanitizer()) return;  // a sanitizer check's inner run: its own record says it all
    std::error_code ignored;
    std::filesystem::create_directories(results_dir(), ignored);
    namespace field = record_field;
    nlohmann::ordered_json record = {{field::lesson, lesson()},           {field::track, track()},
                                      {field::check, check},              {field::status, status},
                                      {field::measured, current.measured}, {field::required, current.required},
                                      {field::detail, detail}};
    if (current.has_speed) {
      auto number = [](double value) { return std::isfinite(value) ? nlohmann::ordered_json(value) : nullptr; };
      record[field::figure] = number(current.figure);
      record[field::minimum] = number(current.minimum);
      record[field::unit] = current.unit;
      record[field::key] = current.key;
    }
    // Spreads the next run's checks (runner): the check's own time, not its waits for others.
    record[field::seconds] = std::max(0.0, static_cast<double>(result.elapsed_time()) / 1000.0 - seconds_this_check_waited());
    record[field::seed] = std::to_string(seed());
    record[field::gpu] = gpu().name;
    record[field::rerun] = rerun_command(check);
    if (result.Skipped() && current.gpu_too_small) record[field::gpu_too_small] = true;
    if (this_check_held_the_gpu_alone()) record[field::held_gpu_alone] = true;
    if (this_check_held_the_gpu_alone() && !this_check_timed_its_work()) record[field::held_gpu_alone_for_memory] = true;
    // A message may hold bytes that are not UTF-8 (a student's output): replaced, not thrown on.
    std::ofstream file(record_path(check));
    file << record.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  }
};

}  // namespace

// Examples: // "Value of: matches(...)\n  Actual: false (3 of 9 values differ...)\nExpected: true" gives
// "3 of 9 values differ...", and "Expected: (a) >= (b), actual: 1 vs 2\ntoo slow..." gives
// "too slow...". Falls back to the whole message.
std::string explanation(const std::string& message) {
  const std::string actual_false = "Actual: false (";
  const std::size_t start = message.find(actual_false);
  if (start != std::string::npos) {
    const std::size_t end = message.rfind(")\nExpected: true");
    const std::size_t from = start + actual_false.size();
    return message.substr(from, end == std::string::npos || end < from ? std::string::npos : end - from);
  }
  std::string explained, line;
  std::istringstream lines(message);
  while (std::getline(lines, line)) {
    const bool framing = line.rfind("Expected", 0) == 0 || line.rfind("Value of:", 0) == 0 ||
                         line.rfind("  Actual:", 0) == 0 || line.rfind("Which is:", 0) == 0 ||
                         line.rfind("Google Test trace:", 0) == 0;
    if (!framing && !line.empty()) explained += (explained.empty() ? "" : "\n") + line;
  }
  return explained.empty() ? message : explained;
}

void note_gpu_too_small() { current.gpu_too_small = true; }

void note_figure(double badness, const std::string& measured, const std::string& required) {
  // A speed check's record shows its speed; the accuracy of the timed output shows only when
  // values were wrong (infinite badness).
  const bool speed_shown = current.has_speed && !std::isinf(current.badness);
  if (badness < current.badness || (speed_shown && !std::isinf(badness))) return;
  current.badness = badness;
  current.measured = measured;
  current.required = required;
}

void note_speed(const std::string& key, double figure, double minimum, const std::string& unit,
                const std::string& measured, const std::string& required) {
  if (!std::isinf(current.badness)) {  // wrong values, noted before, stay what the record shows
    current.measured = measured;
    current.required = required;
  }
  current.has_speed = true;
  current.key = key;
  current.figure = figure;
  current.minimum = minimum;
  current.unit = unit;
}

std::string noted_measured() { return current.measured; }

bool noted_gpu_too_small() { return current.gpu_too_small; }

// STEPWISE_RESULTS_DIR: another folder, e.g. a private one per check when a class is graded
// (grader/class), so that no check can write over another's record. A run with a trace trick
// (STEPWISE_TRACE_TRICK) plays a cheating student on the reference solution: its failures are
// the point, so they go to a folder of their own, never the track's.
std::string check_name(const testing::TestInfo& test) {
  return std::string(test.test_suite_name()) + "." + test.name();
}

std::string results_dir() {
  const char* chosen = std::getenv("STEPWISE_RESULTS_DIR");
  if (chosen != nullptr && *chosen != '\0') return chosen;
  const char* trick = std::getenv("STEPWISE_TRACE_TRICK");
  if (trick != nullptr && *trick != '\0') return std::string(STEPWISE_BUILD_DIR "/results/trick-") + trick;
  return std::string(STEPWISE_BUILD_DIR "/results/") + track();
}

std::string record_path(const std::string& check) {
  return results_dir() + "/" + record_file_name(lesson(), check);
}

testing::TestEventListener* make_recorder() { return new Recorder; }

}  // namespace grader
