#include "grader/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "grader/results.h"

namespace grader {
namespace {

constexpr double kInfinitelyFar = std::numeric_limits<double>::infinity();
constexpr int kShownMismatches = 5;

// The error of one value, in the tolerance's unit (0 when equal).
double error_of(double expected, double actual, const Tolerance& tolerance) {
  if (std::isnan(expected) || std::isnan(actual))
    return std::isnan(expected) && std::isnan(actual) ? 0 : kInfinitelyFar;
  if (std::isinf(expected) || std::isinf(actual)) return expected == actual ? 0 : kInfinitelyFar;
  switch (tolerance.kind) {
    case Tolerance::Kind::exact: return actual == expected ? 0 : std::fabs(actual - expected);
    case Tolerance::Kind::close: return std::fabs(actual - expected);
    case Tolerance::Kind::ulps: return ulp_error(expected, static_cast<float>(actual));
  }
  return kInfinitelyFar;
}

bool within(double error, double expected, const Tolerance& tolerance) {
  switch (tolerance.kind) {
    case Tolerance::Kind::exact: return error == 0;
    case Tolerance::Kind::close: return error <= tolerance.abs + tolerance.rel * std::fabs(expected);
    case Tolerance::Kind::ulps: return error <= tolerance.max_ulps;
  }
  return false;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

}  // namespace

std::string Tolerance::describe() const {
  switch (kind) {
    case Kind::exact: return "exact";
    case Kind::close: return "|error| <= " + number(abs) + " + " + number(rel) + " * |expected|";
    case Kind::ulps: return "<= " + number(max_ulps) + " ulp";
  }
  return "";
}

double ulp_error(double expected, float actual) {
  if (std::isnan(expected) || std::isnan(actual))
    return std::isnan(expected) && std::isnan(actual) ? 0 : kInfinitelyFar;
  if (std::isinf(expected) || std::isinf(actual)) return expected == actual ? 0 : kInfinitelyFar;
  // Floats in [2^k, 2^(k+1)) are 2^(k-23) apart; subnormals (below 2^-126) are 2^-149 apart.
  const double magnitude = std::fabs(expected);
  const int exponent = magnitude < 0x1p-126 ? -126 : std::min(std::ilogb(magnitude), 127);
  const double spacing = std::ldexp(1.0, exponent - 23);
  return std::fabs(static_cast<double>(actual) - expected) / spacing;
}

bool MismatchReport::add(bool never_written) {
  ++bad_;
  if (never_written) ++unwritten_;
  return bad_ <= kShownMismatches;
}

void MismatchReport::show(const std::string& where, const std::string& expected, const std::string& got,
                          bool never_written) {
  shown_ += "\n    " + where + " expected " + expected + ", got " + got;
  if (never_written) shown_ += " (never written: still the grader's poison value)";
}

testing::AssertionResult MismatchReport::failure(std::size_t total, const std::string& required,
                                                 const std::string& unwritten_hint) const {
  testing::AssertionResult failure = testing::AssertionFailure();
  failure << bad_ << " of " << total << " values differ from the CPU reference";
  if (!required.empty()) failure << " (" << required << ")";
  if (unwritten_ > 0) failure << "; " << unwritten_ << " were never written" << unwritten_hint;
  failure << ". First mismatches:" << shown_;
  if (bad_ > kShownMismatches) failure << "\n    ... and " << bad_ - kShownMismatches << " more";
  return failure;
}

testing::AssertionResult all_equal() {
  note_figure(0, "all equal", Tolerance::exact().describe());
  return testing::AssertionSuccess();
}

bool value_right(double expected, double actual, bool never_written, const Tolerance& tolerance, double& error) {
  error = error_of(expected, actual, tolerance);
  return !never_written && within(error, expected, tolerance);
}

testing::AssertionResult all_right(const Tolerance& tolerance, double worst) {
  const std::string required = tolerance.describe();
  if (tolerance.kind == Tolerance::Kind::ulps)
    note_figure(worst, "max error " + number(worst) + " ulp", required);
  else if (tolerance.kind == Tolerance::Kind::close)
    note_figure(worst, "max |error| " + number(worst), required);
  else
    note_figure(0, "all equal", required);
  return testing::AssertionSuccess();
}

void Comparison::add(std::size_t index, double expected, double actual, bool never_written) {
  ++total_;
  double error = 0;
  if (value_right(expected, actual, never_written, tolerance_, error)) {
    worst_ = std::max(worst_, error);
    return;
  }
  if (report_.add(never_written))
    report_.show("[" + std::to_string(index) + "]", number(expected), number(actual), never_written);
}

testing::AssertionResult Comparison::result() const {
  if (report_.count() == 0) return all_right(tolerance_, worst_);
  const std::string required = tolerance_.describe();
  note_figure(kInfinitelyFar, std::to_string(report_.count()) + " of " + std::to_string(total_) + " wrong", required);
  return report_.failure(total_, required);
}

testing::AssertionResult compare(const std::vector<double>& expected,
                                 const std::vector<double>& actual,
                                 const std::vector<bool>& never_written,
                                 const Tolerance& tolerance) {
  Comparison comparison(tolerance);
  for (std::size_t i = 0; i < expected.size(); ++i) comparison.add(i, expected[i], actual[i], never_written[i]);
  return comparison.result();
}

}  // namespace grader
