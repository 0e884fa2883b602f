#pragma once
// The kind of a check, from its suite's name (the one convention every part of the grader reads):
//   <Anything>Speed   a speed check: needs the GPU, runs alone (timings), has a minimum in
//                     grader/requirements.txt
//   Cpu<Anything>     a check of host code: runs without a GPU
//   Sanitizer         the lesson's checks again under compute-sanitizer: needs the GPU
//   anything else     a correctness check on the GPU
// Header-only: the test programs (grader/harness) and the runner (grader/runner) both use it, and
// it is the rule's one reader: CMake asks it through the runner (`stepwise check-kinds`, which
// cmake/test_kinds.cmake calls for the CTest tests' labels and scheduling). Held to the table
// grader/selftest/check-kinds.txt (CheckKind.AgreesWithTheTable in grader/runner/selftest).
#include <string>
#include <vector>

namespace grader {

enum class CheckKind { correctness, speed, cpu, sanitizer };

inline CheckKind check_kind(const std::string& suite_or_check) {
  const std::string suite = suite_or_check.substr(0, suite_or_check.find('.'));
  const std::string speed = "Speed";
  if (suite == "Sanitizer") return CheckKind::sanitizer;
  if (suite.rfind("Cpu", 0) == 0) return CheckKind::cpu;
  if (suite.size() >= speed.size() && suite.compare(suite.size() - speed.size(), speed.size(), speed) == 0)
    return CheckKind::speed;
  return CheckKind::correctness;
}

inline bool needs_gpu(CheckKind kind) { return kind != CheckKind::cpu; }

// "speed", "cpu", "sanitizer" or "correctness": the kind's name in CTest labels, the class build's
// lists of checks and the table.
inline const char* check_kind_name(CheckKind kind) {
  switch (kind) {
    case CheckKind::speed: return "speed";
    case CheckKind::cpu: return "cpu";
    case CheckKind::sanitizer: return "sanitizer";
    case CheckKind::correctness: break;
  }
  return "correctness";
}

// The CTest labels of a check of this kind, as `stepwise check-kinds` gives them (the course's
// tests) and `stepwise list-checks` writes them (the class build's): speed {speed, gpu}, sanitizer
// {sanitizer, gpu}, cpu {correctness, cpu}, correctness {correctness, gpu}. The table's 'labels'
// lines hold them.
inline std::vector<std::string> check_labels(CheckKind kind) {
  return {kind == CheckKind::cpu ? "correctness" : check_kind_name(kind), needs_gpu(kind) ? "gpu" : "cpu"};
}

// GoogleTest filters that keep the checks of one kind, as check_kind tells them apart: the
// correctness checks (each other kind left out by its pattern), what a sanitizer check runs again
// under compute-sanitizer and what the trace tricks play on; the speed checks, where the speed
// tricks play on the timed runs (grader/broken/expect_trick.cmake asks `stepwise check-filter
// <kind>`). Held to the table grader/selftest/check-kinds.txt, which also says which of its
// names each filter keeps.
inline const char* const kCorrectnessChecksFilter = "-*Speed.*:Cpu*.*:Sanitizer.*";
inline const char* const kSpeedChecksFilter = "*Speed.*-Cpu*.*";

}  // namespace grader
