#pragma once
// Comparing a GPU result with a CPU reference computed in higher precision (double).
//
//   EXPECT_TRUE(grader::matches(expected, out, grader::Tolerance::ulps(2)));
//
// On failure the message counts the mismatches and lists the first few: index, expected,
// actual, and "never written" when the value is still the poison the grader filled in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "grader/cpu_parallel.h"
#include "grader/inputs.h"

namespace grader {

struct Tolerance {
  enum class Kind { exact, close, ulps } kind = Kind::exact;
  double abs = 0, rel = 0;  // close: |actual - expected| <= abs + rel * |expected|
  double max_ulps = 0;      // ulps: in units of the float spacing at the expected value

  static Tolerance exact() { return {}; }
  static Tolerance close(double abs, double rel) { return {Kind::close, abs, rel, 0}; }
  static Tolerance ulps(double n) { return {Kind::ulps, 0, 0, n}; }
  std::string describe() const;
};

// The failure message of a comparison, the same for every check: how many values are wrong, how
// many were never written, and the first few with where they are, what was expected and what
// the code wrote. A lesson with its own notion of "right" (e.g. a range of counts) uses it too.
class MismatchReport {
 public:
  // Counts one wrong value; true when it is among the first few the message shows, which the
  // caller then describes with show() (so millions of wrong values cost no formatting).
  bool add(bool never_written);
  // Describes the value just added: `where` e.g. "[17]" or "pixel (x 3, y 5):".
  void show(const std::string& where, const std::string& expected, const std::string& got, bool never_written);
  std::size_t count() const { return bad_; }
  // "<bad> of <total> values differ from the CPU reference (<required>); ... First mismatches: ..."
  // `unwritten_hint` follows the count of never-written values (e.g. a question about the grid).
  testing::AssertionResult failure(std::size_t total, const std::string& required,
                                   const std::string& unwritten_hint = "") const;

 private:
  std::size_t bad_ = 0, unwritten_ = 0;
  std::string shown_;
};

// Distance between `actual` and the exact value `expected`, in units of the spacing between
// adjacent floats at `expected` (a correctly rounded float is within 0.5 ulp). NaN and
// infinities count as 0 when they match and as infinitely far when they do not.
double ulp_error(double expected, float actual);

// An exact comparison that found every value equal (noted for the summary).
testing::AssertionResult all_equal();

// Whether `actual` (never written: still the poison) is within `tolerance` of `expected`, and its
// error in the tolerance's unit.
bool value_right(double expected, double actual, bool never_written, const Tolerance& tolerance, double& error);

// The verdict of a comparison that found every value right, the largest error `worst` (noted for
// the summary).
testing::AssertionResult all_right(const Tolerance& tolerance, double worst);

// A comparison built one value at a time, for any container: add() each value with its index
// (shown in the message), then result() gives the verdict and notes the worst error.
class Comparison {
 public:
  explicit Comparison(const Tolerance& tolerance) : tolerance_(tolerance) {}
  void add(std::size_t index, double expected, double actual, bool never_written);
  testing::AssertionResult result() const;

 private:
  Tolerance tolerance_;
  MismatchReport report_;
  std::size_t total_ = 0;
  double worst_ = 0;
};

// Compares actual[i] with expected[i] for every i under `tolerance`.
testing::AssertionResult compare(const std::vector<double>& expected,
                                 const std::vector<double>& actual,
                                 const std::vector<bool>& never_written,
                                 const Tolerance& tolerance);

// Compares values (copied back from the GPU) with the reference; poison marks unwritten ones.
// `where`, when given, holds the index each value stands for (a sample of a larger output).
template <typename T, typename Reference>
testing::AssertionResult matches(const std::vector<Reference>& expected, const std::vector<T>& actual,
                                 const Tolerance& tolerance, const std::vector<std::size_t>* where = nullptr) {
  static_assert(std::is_arithmetic<T>::value, "matches() compares numbers");
  if (expected.size() != actual.size())
    return testing::AssertionFailure() << "the reference has " << expected.size()
                                       << " values, the output " << actual.size();
  if (std::is_integral<T>::value && std::is_integral<Reference>::value && tolerance.kind == Tolerance::Kind::exact &&
      std::equal(actual.begin(), actual.end(), expected.begin(),
                 [](T a, Reference e) { return static_cast<long long>(a) == static_cast<long long>(e); }))
    return all_equal();  // the common case, without the report's work
  // Every value on the idle cores first (millions in the largest checks); only a miss takes the loop
  // below, which goes through them in order for the report.
  std::mutex merging;
  double worst = 0;
  bool all = true;
  in_parallel(actual.size(), [&](std::size_t begin, std::size_t end) {
    double part_worst = 0, error = 0;
    bool part_all = true;
    for (std::size_t i = begin; i < end && part_all; ++i) {
      part_all = value_right(static_cast<double>(expected[i]), static_cast<double>(actual[i]), is_poison(actual[i]),
                             tolerance, error);
      part_worst = std::max(part_worst, error);
    }
    const std::lock_guard<std::mutex> lock(merging);
    worst = std::max(worst, part_worst);
    all = all && part_all;
  }, std::size_t{1} << 16);
  if (all) return all_right(tolerance, worst);
  Comparison comparison(tolerance);
  for (std::size_t i = 0; i < actual.size(); ++i)
    comparison.add(where != nullptr ? (*where)[i] : i, static_cast<double>(expected[i]), static_cast<double>(actual[i]),
                   is_poison(actual[i]));
  return comparison.result();
}

// Compares a device output with the reference, and checks that nothing past its end changed.
template <typename T, typename Reference>
testing::AssertionResult matches(const std::vector<Reference>& expected, const Output<T>& output,
                                 const Tolerance& tolerance) {
  const testing::AssertionResult guard = output.guard_intact();
  if (!guard) return guard;
  return matches(expected, output.to_host(), tolerance);
}

}  // namespace grader
