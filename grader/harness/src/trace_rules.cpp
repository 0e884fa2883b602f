// grader::Rules: what a step's trace must show, and the messages that say what it showed instead.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

#include "grader/inputs.h"
#include "grader/shared_run.h"
#include "grader/trace.h"

namespace grader {
namespace {

// GPU clocks and the host clock are brought to one time base by CUPTI to within microseconds.
constexpr std::uint64_t kClockSlackNs = 50'000;
// Kernel and copy timestamps come from one GPU clock: work ordered before the marker ends before
// it starts, up to the timestamps' resolution (about a microsecond).
constexpr std::uint64_t kOrderSlackNs = 2'000;

using Result = testing::AssertionResult;

std::string quoted(const std::string& name) { return "`" + kernel_short_name(name) + "`"; }


std::string whose(const TracedKernel& k) {
  switch (k.origin) {
    case Origin::library: return " (" + k.library + ")";
    case Origin::grader: return " (the grader's)";
    case Origin::runtime_compiled: return " (not built by nvcc from your files: a library's, or compiled at run time)";
    default: return "";
  }
}

}  // namespace

std::string megabytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g MB", bytes / 1e6);
  return text;
}

std::string ms_text(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g ms", ms);
  return text;
}

Rules::Rules(std::string step) : step_(std::move(step)) {}

Rules& Rules::own_kernels() {
  own_ = true;
  tags_.insert("own");
  return *this;
}

Result Rules::check_own_kernels(const Trace& t) const {
  {
    std::ostringstream foreign;
    bool any_own = false, any_foreign = false;
    for (const TracedKernel& k : t.kernels) {
      const bool allowed_library =
          k.origin == Origin::library && std::find(allowed_.begin(), allowed_.end(), k.library) != allowed_.end();
      const bool allowed_runtime = k.origin == Origin::runtime_compiled && runtime_compiled_;
      if (k.origin == Origin::student) {
        any_own = true;
      } else if (!allowed_library && !allowed_runtime && !any_foreign) {
        foreign << quoted(k.name) << whose(k);
        any_foreign = true;
      }
    }
    if (any_foreign) {
      std::string allowed;
      for (const std::string& library : allowed_) allowed += (allowed.empty() ? "" : " and ") + library;
      return testing::AssertionFailure() << "ran " << foreign.str() << (any_own ? ", not only kernels of yours" : " and no kernel of yours")
                                         << (allowed.empty() ? ": this step is to be written by hand"
                                                             : ": this step runs only " + allowed + " and kernels of yours");
    }
    bool any_allowed_library = false;
    for (const TracedKernel& k : t.kernels)
      any_allowed_library = any_allowed_library || (k.origin == Origin::library &&
                                                    std::find(allowed_.begin(), allowed_.end(), k.library) != allowed_.end());
    if (!any_own && !runtime_compiled_ && !any_allowed_library) {
      std::uint64_t from_host = 0;
      for (const TracedCopy& c : t.copies)
        if (c.host_side) from_host += c.bytes;
      auto failure = testing::AssertionFailure() << "ran no kernel of yours";
      if (from_host > 0) failure << " and copied " << megabytes(from_host) << " to or from host memory: was the work done on the host?";
      return failure;
    }
    return testing::AssertionSuccess();
  }
}

Rules& Rules::library(const std::string& library, bool required) {
  allowed_.push_back(library);
  tags_.insert("library");
  if (!required) return *this;
  return also([library](const Trace& t) -> Result {
    for (const TracedKernel& k : t.kernels)
      if (k.origin == Origin::library && k.library == library) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "ran no kernel of " << library << ": this step is to call it";
  });
}

Rules& Rules::runtime_compiled() {
  runtime_compiled_ = true;
  tags_.insert("runtime");
  return also([](const Trace& t) -> Result {
    bool any = false;
    for (const TracedKernel& k : t.kernels) {
      if (k.built_from_student_files)
        return testing::AssertionFailure() << "ran " << quoted(k.name) << ", which nvcc built from your files: "
                                           << "this step's kernel is to be compiled at run time (NVRTC)";
      any = any || k.origin == Origin::runtime_compiled;
    }
    if (!any) return testing::AssertionFailure() << "ran no kernel compiled at run time";
    return testing::AssertionSuccess();
  });
}

Rules Rules::kernel_step(std::string step, cudaStream_t stream) {
  Rules rules(std::move(step));
  rules.own_kernels().on_stream(stream).returns_at_once().no_host_copies().ordered_before_next_work();
  return rules;
}

Rules& Rules::on_stream(cudaStream_t stream) {
  tags_.insert("stream");
  if (stream != nullptr && stream != cudaStreamLegacy) tags_.insert("stream-given");
  stream_ = stream == cudaStreamLegacy ? nullptr : stream;
  return also([stream](const Trace& t) -> Result {
    const std::uint32_t given = t.stream_id(stream);
    auto elsewhere = [&](const std::string& what, std::uint32_t on) {
      return testing::AssertionFailure() << what << " ran on " << t.stream_name(on) << ", not on the stream you were given ("
                                         << t.stream_name(given) << "): pass the stream to every launch and copy";
    };
    for (const TracedKernel& k : t.kernels)
      if (k.stream != given) return elsewhere("your kernel " + quoted(k.name), k.stream);
    for (const TracedCopy& c : t.copies)
      if (c.stream != given) return elsewhere("a copy " + c.direction + " of " + megabytes(c.bytes), c.stream);
    for (const TracedMemset& m : t.memsets)
      if (m.stream != given) return elsewhere("a memset of " + megabytes(m.bytes), m.stream);
    return testing::AssertionSuccess();
  });
}

Rules& Rules::returns_at_once() {
  tags_.insert("async");
  return also([](const Trace& t) -> Result {
    if (!t.syncs.empty())
      return testing::AssertionFailure() << "called " << t.syncs.front().call << ": this call is asynchronous and "
                                         << "must return without waiting for the GPU (the caller synchronises)";
    for (const TracedCopy& c : t.copies)
      if (!c.async || c.pageable)
        return testing::AssertionFailure()
               << "made a blocking copy (" << c.direction << ", " << megabytes(c.bytes)
               << (c.pageable ? ", pageable host memory" : ", cudaMemcpy rather than cudaMemcpyAsync")
               << "): this call is asynchronous and must return without waiting for the GPU";
    return testing::AssertionSuccess();
  });
}

Rules& Rules::done_when_returned() {
  tags_.insert("done");
  return also([](const Trace& t) -> Result {
    std::uint64_t last = 0;
    std::string what;
    auto later = [&](std::uint64_t end, const std::string& name) {
      if (end > last) {
        last = end;
        what = name;
      }
    };
    for (const TracedKernel& k : t.kernels) later(k.end, "your kernel " + quoted(k.name));
    for (const TracedCopy& c : t.copies) later(c.end, "a copy " + c.direction);
    for (const TracedMemset& m : t.memsets) later(m.end, "a memset");
    if (last <= t.returned_at + kClockSlackNs) return testing::AssertionSuccess();
    const double whole = (last - t.called_at) / 1e6, after = (last - t.returned_at) / 1e6;
    return testing::AssertionFailure() << what << " was still running " << ms_text(after) << " after the call returned (of "
                                       << ms_text(whole) << " in all): the results were not ready; wait for the work "
                                       << "(cudaStreamSynchronize) before returning";
  });
}

Rules& Rules::ordered_before_next_work() {
  tags_.insert("done");
  return also([](const Trace& t) -> Result {
    if (t.caller_next_at == 0) return testing::AssertionSuccess();  // no marker: nothing to compare
    auto after = [&](std::uint64_t end, const std::string& what) -> Result {
      if (end <= t.caller_next_at + kOrderSlackNs) return testing::AssertionSuccess();
      return testing::AssertionFailure() << what << " was still running " << ms_text((end - t.caller_next_at) / 1e6)
                                         << " after the caller's next work on its stream began: it ran on a stream "
                                         << "the caller does not wait for. Launch on the caller's stream, or make it "
                                         << "wait for your stream (cudaEventRecord + cudaStreamWaitEvent) before returning";
    };
    for (const TracedKernel& k : t.kernels)
      if (Result r = after(k.end, "your kernel " + quoted(k.name)); !r) return r;
    for (const TracedCopy& c : t.copies)
      if (Result r = after(c.end, "a copy " + c.direction + " of " + megabytes(c.bytes)); !r) return r;
    for (const TracedMemset& m : t.memsets)
      if (Result r = after(m.end, "a memset of " + megabytes(m.bytes)); !r) return r;
    return testing::AssertionSuccess();
  });
}

Rules& Rules::no_host_copies() {
  tags_.insert("device-only");
  return also([](const Trace& t) -> Result {
    for (const TracedCopy& c : t.copies)
      if (c.host_side)
        return testing::AssertionFailure() << "copied " << megabytes(c.bytes) << " " << c.direction
                                           << ": the inputs and the output are on the device already; was part of "
                                           << "the work done on the host?";
    return testing::AssertionSuccess();
  });
}

Rules& Rules::shared_memory(int bytes) {
  tags_.insert("shared");
  return also([bytes](const Trace& t) -> Result {
    std::string shown;
    for (const TracedKernel& k : t.kernels) {
      if (k.origin != Origin::student) continue;
      if (k.shared_bytes >= bytes) return testing::AssertionSuccess();
      shown = quoted(k.name) + " used " + std::to_string(k.shared_bytes) + " B";
    }
    return testing::AssertionFailure() << "no kernel of yours used shared memory (" << (shown.empty() ? "none ran" : shown)
                                       << " per block; at least " << bytes << " B expected): the step is to stage its "
                                       << "tiles in __shared__ memory";
  });
}

Rules& Rules::kernels_differ_from(const Trace& other, const std::string& other_step) {
  tags_.insert("differ");
  std::set<std::string> theirs;
  for (const TracedKernel& k : other.kernels)
    if (k.origin == Origin::student) theirs.insert(k.name);
  return also([theirs, other_step](const Trace& t) -> Result {
    for (const TracedKernel& k : t.kernels)
      if (k.origin == Origin::student && theirs.count(k.name))
        return testing::AssertionFailure() << "ran " << quoted(k.name) << ", the kernel of " << other_step
                                           << ": this step has a kernel of its own";
    return testing::AssertionSuccess();
  });
}

Rules& Rules::also(std::function<Result(const Trace&)> rule) {
  rules_.push_back(std::move(rule));
  return *this;
}

Result Rules::check(const Trace& t) const {
  std::ostringstream broken;
  int count = 0;
  bool starts_with_a_verb = true;  // "ran ...", "called ...", not "your kernel ..."
  auto note = [&](const Result& result) {
    if (result) return;
    const std::string message = result.message();
    if (count == 0) starts_with_a_verb = message.rfind("your ", 0) != 0;
    broken << (count++ ? "; and " : "") << message;
  };
  if (own_) note(check_own_kernels(t));
  for (const auto& rule : rules_) note(rule(t));
  if (count == 0) return testing::AssertionSuccess();
  return testing::AssertionFailure() << step_ << (starts_with_a_verb ? " " : ": ") << broken.str();
}

namespace {
void mark_skipped(const std::string& reason) { GTEST_SKIP() << "the grader could not see what ran: " << reason; }
}  // namespace

Trace expect_ran(const std::function<void()>& call, const Rules& rules) {
  Trace t = trace(with_trick(call, rules), rules.stream());
  if (under_sanitizer()) return t;
  if (!t.available) {
    mark_skipped(t.unavailable_reason);
    return t;
  }
  if (std::getenv("STEPWISE_SHOW_TRACE") != nullptr) std::printf("%s: what ran\n%s", rules.step().c_str(), t.listing(64).c_str());
  const Result result = rules.check(t);
  if (!result) ADD_FAILURE() << result.message() << ".\n  What ran:\n" << t.listing();
  return t;
}

Result reported_time_matches(double reported_ms, double traced_ms, const std::string& what) {
  if (Result alone = times_taken_alone(); !alone) return alone;
  // Two calls of the same work differ by a few percent (clocks, L2); events add launch gaps.
  if (reported_ms >= 0.9 * traced_ms - 0.01 && reported_ms <= 1.1 * traced_ms + 0.05)
    return testing::AssertionSuccess();
  return testing::AssertionFailure() << what << " says " << ms_text(reported_ms) << "; the trace shows " << ms_text(traced_ms)
                                     << ": record the events right before and right after what they time, on the "
                                     << "stream it runs on";
}

Result reported_time_matches(double reported_ms, const Trace& t, std::uint64_t start, std::uint64_t end,
                             const std::string& what) {
  if (Result alone = times_taken_alone(); !alone) return alone;
  std::uint64_t before = t.called_at, after = t.returned_at > end ? t.returned_at : end;
  auto around = [&](std::uint64_t s, std::uint64_t e) {
    if (e <= start && e > before) before = e;
    if (s >= end && s < after) after = s;
  };
  for (const TracedKernel& k : t.kernels) around(k.start, k.end);
  for (const TracedCopy& c : t.copies) around(c.start, c.end);
  for (const TracedMemset& m : t.memsets) around(m.start, m.end);
  const double traced_ms = (end - start) / 1e6, window_ms = (after - std::min(before, start)) / 1e6;
  if (reported_ms >= 0.9 * traced_ms - 0.01 && reported_ms <= 1.1 * window_ms + 0.05) return testing::AssertionSuccess();
  return testing::AssertionFailure() << what << " says " << ms_text(reported_ms) << "; the trace shows its work took "
                                     << ms_text(traced_ms) << " on the GPU, and " << ms_text(window_ms) << " from the end of the "
                                     << "work before it to the start of the work after it: record the events right "
                                     << "before and right after what they time";
}

}  // namespace grader
