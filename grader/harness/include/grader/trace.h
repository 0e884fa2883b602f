#pragma once
// What ran. A check's values and times do not say which code produced them: a "hand-written"
// step could call cuBLAS, compute on the host and copy the answer in, or run on a stream of its
// own. grader::trace() runs one call of the student's code with CUPTI recording everything it
// does on the GPU (kernels with their names, streams, launch shapes and shared memory; copies;
// memsets; synchronisations), and grader::Rules state what a step's trace must show:
//
//   grader::expect_ran([&] { matmul_tiled(a, b, c, m, n, k); },
//                      grader::Rules("step 2").own_kernels().shared_memory());
//   grader::expect_ran([&] { transform_async(in, out, n, work, stream); },
//                      grader::Rules("step 3").own_kernels().on_stream(stream).returns_at_once());
//
// A failure says what the trace showed ("step 4 ran `sm90_xmma_gemm_...` (cuBLAS) and no kernel
// of yours"). A traced call is an extra, untimed call: tracing never changes a figure. Under
// compute-sanitizer nothing is traced (the call just runs); where CUPTI cannot trace (another
// profiler attached), the check is reported SKIP with the reason, never PASS.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace grader {

// Whose code a kernel is: built by nvcc from the student's files (or from a template header the
// student completes), the grader's own, a CUDA library's (cuBLAS, cuFFT, cuRAND, CUB, Thrust),
// or none of those (compiled at run time, e.g. by NVRTC).
enum class Origin { student, grader, library, runtime_compiled };

struct TracedKernel {
  std::string name;     // demangled: "tiled_kernel(const float*, const float*, float*, int, int, int)"
  Origin origin;
  std::string library;  // for Origin::library: "cuBLAS", "cuFFT", "cuRAND", "CUB", "Thrust"
  bool built_from_student_files;  // nvcc built it from the graded files themselves
  std::uint32_t stream;
  dim3 grid, block;
  int shared_bytes;               // static + dynamic shared memory per block
  std::uint64_t start, end;       // ns, CUPTI's clock
};

struct TracedCopy {
  std::string direction;  // "host to device", "device to host", "device to device", ...
  bool host_side;         // from or to host memory
  bool pageable;          // the host side is pageable (a staged, blocking copy)
  bool async;             // issued by an asynchronous call (cudaMemcpyAsync)
  std::uint64_t bytes;
  std::uint32_t stream;
  std::uint64_t start, end;
};

struct TracedMemset {
  std::uint64_t bytes;
  std::uint32_t stream;
  std::uint64_t start, end;
};

struct TracedSync {
  std::string call;  // "cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize"
  std::uint32_t stream;
  std::uint64_t start, end;  // host time spent waiting
};

struct Trace {
  bool available = false;
  std::string unavailable_reason;  // when not available: why (shown in the SKIP)
  std::vector<TracedKernel> kernels;
  std::vector<TracedCopy> copies;
  std::vector<TracedMemset> memsets;
  std::vector<TracedSync> syncs;
  std::uint64_t called_at = 0, returned_at = 0;  // host clock, CUPTI's time base
  std::uint32_t legacy_stream = 0;               // the legacy default stream's id
  // When the work the caller enqueued next on the call's stream started on the GPU (a marker
  // kernel of the grader's, launched right after the call returned; not in `kernels`): work of
  // the call that ends later was on a stream the caller's next work does not wait for.
  std::uint64_t caller_next_at = 0;

  // CUPTI's id of `stream` (nullptr: the legacy default stream).
  std::uint32_t stream_id(cudaStream_t stream) const;
  // The kernels of an origin.
  std::vector<const TracedKernel*> kernels_of(Origin origin) const;
  // GPU time from the first start to the last end of everything traced, and of the kernels only.
  double span_ms() const;
  double kernel_span_ms() const;
  // What ran, one line each ("kernel tiled_kernel(...) grid 32x32 block 16x16, 2048 B shared,
  // stream 13, 0.41 ms"), at most `max_lines`: for failure messages.
  std::string listing(std::size_t max_lines = 12) const;
  // A short name for a stream in messages: "the legacy default stream", "stream 13".
  std::string stream_name(std::uint32_t stream) const;
};

// Sizes and times in messages: "268 MB", "0.42 ms" (three significant digits).
std::string megabytes(std::uint64_t bytes);
std::string ms_text(double ms);
// A demangled kernel name without its parameter list ("ns::(anonymous namespace)::k<int>(int*)"
// becomes "ns::(anonymous namespace)::k<int>"): how messages name a kernel.
std::string kernel_name_without_parameters(const std::string& demangled);
// How a message names a kernel: without its parameters, and without the "void " that demangled
// template kernels start with ("void scan<float>(float*)" becomes "scan<float>").
std::string kernel_display_name(const std::string& demangled);
// kernel_display_name cut to 90 characters at the most ("..." ends a longer one): how trace
// listings and failure messages name a kernel in a line.
std::string kernel_short_name(const std::string& demangled);

// Runs `call` once with the GPU traced: the device is synchronised first (earlier work is not
// the call's), the host clock is read when the call returns, then the device is synchronised
// and the records collected. An exception from `call` (a TODO) passes through. Under
// compute-sanitizer `call` just runs and the trace is not available.
// `stream` is the caller's stream, where the marker of caller_next_at is launched.
Trace trace(const std::function<void()>& call, cudaStream_t stream = nullptr);

// The device memory this process's own allocations hold (cudaMalloc and the like, libraries'
// included, less what was freed), counted from CUPTI's records of them since the first call; -1
// where CUPTI cannot record (another profiler attached). Unlike the device's free memory, other
// processes on the GPU do not move it (grader/shared_run.h: what a check left allocated).
long long device_memory_held();

// The kernels nvcc built into this test program, by mangled name: into the graded files, and into
// the checks (which instantiate the kernels of template headers). Generated for each test program
// by cmake/ListKernels.cmake.
struct KernelsBuilt {
  std::vector<std::string> student, checks;
};
const KernelsBuilt& kernels_built();

// What a step's trace must show. Each rule adds to the list; expect_ran() checks all of them and
// reports every one that is broken.
class Rules {
 public:
  explicit Rules(std::string step);  // the step in the student's words: "step 2", "matmul_tiled"
  // The usual promise of a step that launches kernels on device data and returns at once:
  // own_kernels().on_stream(stream).returns_at_once().no_host_copies().ordered_before_next_work()
  // (nullptr: the legacy default stream, for APIs that take no stream).
  static Rules kernel_step(std::string step, cudaStream_t stream = nullptr);

  // At least one kernel of the student's ran, and every kernel that ran is the student's: no
  // library (cuBLAS, cuFFT, cuRAND, CUB, Thrust) and nothing compiled at run time, unless allowed
  // by library() or runtime_compiled() (whose kernels then count as the student's).
  Rules& own_kernels();
  // Kernels of `library` ("cuBLAS", "cuFFT", "cuRAND") are allowed too; with `required`, at least
  // one of them must run.
  Rules& library(const std::string& library, bool required = true);
  // The step's kernels are compiled at run time (NVRTC): at least one such kernel ran and none
  // that nvcc built from the student's files.
  Rules& runtime_compiled();
  // Every kernel, copy and memset ran on `stream` (nullptr: the legacy default stream).
  Rules& on_stream(cudaStream_t stream);
  // The call returned without waiting for the GPU: no synchronisation, no blocking copy.
  Rules& returns_at_once();
  // Everything the call started had finished when it returned.
  Rules& done_when_returned();
  // Everything the call started ended before the caller's next work on its stream began: no
  // work left on a stream of the call's own that the caller cannot know to wait for (work joined
  // back into the caller's stream, e.g. with cudaStreamWaitEvent, is fine). Needs on_stream().
  Rules& ordered_before_next_work();
  // No copy from or to host memory: inputs and outputs are on the device.
  Rules& no_host_copies();
  // Some kernel of the student's uses at least `bytes` of shared memory per block.
  Rules& shared_memory(int bytes = 1);
  // No kernel of the student's that ran here also ran in `other` (another step's trace).
  Rules& kernels_differ_from(const Trace& other, const std::string& other_step);
  // A rule of the lesson's own: `rule` returns why the trace breaks it, or success.
  Rules& also(std::function<testing::AssertionResult(const Trace&)> rule);

  // Every broken rule, or success.
  testing::AssertionResult check(const Trace& trace) const;
  const std::string& step() const { return step_; }
  // Whether a rule is among these: "own", "library", "runtime", "stream", "async", "done",
  // "device-only", "shared", "differ", and "stream-given" for on_stream() with a stream other than
  // the default (the trace tricks below break one rule each).
  bool has(const std::string& rule) const { return tags_.count(rule) > 0; }
  // The stream on_stream() named (nullptr: the default stream, or none named).
  cudaStream_t stream() const { return stream_; }

 private:
  testing::AssertionResult check_own_kernels(const Trace& trace) const;

  std::string step_;
  bool own_ = false, runtime_compiled_ = false;
  cudaStream_t stream_ = nullptr;
  std::vector<std::string> allowed_;  // libraries whose kernels may run
  std::set<std::string> tags_;
  std::vector<std::function<testing::AssertionResult(const Trace&)>> rules_;
};

// Traces `call` and checks `rules`: a GoogleTest failure for each broken rule, with what ran.
// Where the trace is not available (CUPTI busy or missing) the check is marked SKIP with the
// reason, unless it failed already; under compute-sanitizer it only runs the call. With
// STEPWISE_SHOW_TRACE set it prints what ran, for a student who wants to see. Returns the
// trace, so a check can compare two steps' kernels or hold reported times against it.
Trace expect_ran(const std::function<void()>& call, const Rules& rules);

// Proof that each rule can fail, without a broken copy of every solution: with the environment
// variable STEPWISE_TRACE_TRICK set, expect_ran() plays a student's trick around the call where
// the rules hold the rule the trick breaks, and prints "[ TRICK ] <trick> applied to <step>"; the
// check must then fail (grader/broken/expect_trick.cmake runs each lesson's solution so):
//   library        the call, then a CUB reduction                  breaks own_kernels()
//   host           no call: host data copied in instead            breaks own_kernels()
//   legacy-stream  the call, then a kernel on the default stream   breaks on_stream(a stream)
//   side-stream    the call, then a kernel on a stream of its own  breaks on_stream()
//   synchronise    the call, then cudaDeviceSynchronize            breaks returns_at_once()
//   left-running   the call, then a kernel left running 2 ms       breaks done_when_returned()
//                  past the call's own work, on a stream of its    and ordered_before_next_work()
//                  own (a long kernel of the call's does not hide it)
//   host-copy      the call, then a copy from host memory          breaks no_host_copies()
// The trick the environment asks for where `rules` hold the rule it breaks: `call` wrapped in it
// (and the line printed), or `call` itself.
std::function<void()> with_trick(const std::function<void()>& call, const Rules& rules);
// With a trick asked for, prints after each check it was applied in "[ CAUGHT   ]" when the
// check failed saying what the broken rule says, "[ MISSED   ]" otherwise (the grader's main).
void install_trick_listener();

// The speed tricks: STEPWISE_TRACE_TRICK may also name a trick a student might play for a green
// speed row, which gpu_median_ms(const Workload&) (grader/speed.h) plays on the runs of the
// student's call it times (warm-ups included; never on the grader's own yardsticks, which set no
// what_ran, nor on the one call on fresh inputs after the timed runs, which the trace tricks
// cover). Each must make the timing fail saying so (the same listener, the same test
// <NN-slug>/trick/<trick>, run over the lesson's speed checks):
//   skip-repeated  the call does its work on the first run only and     "was the work skipped"
//                  returns at once on every later one (the output
//                  "must still be there"; each run's fresh inputs
//                  poisoned it)
//   checked-only   the call does its work only on the runs whose output  "work skipped?"
//                  the grader checks when the timing ends: the warm-ups
//                  and the last timed run; every other timed run returns
//                  at once. A timing that checks every run
//                  (Workload::every_run_is_right) fails on the first
//                  skipped one; others leave the median run empty, which
//                  only the figure's ceiling ("impossible figure") can
//                  catch
//   hidden-work    the call, then 2 ms more of its work left running on  "results were not ready when
//                  a stream of its own (started once the call's work is  the call returned"
//                  done, which the caller's stream does not wait for)
// A speed trick's name, or none: what gpu_median_ms plays on the run `run` (1-based) of a timing
// of `warmups` untimed runs and `runs` in all (the last one's output is checked) of the call
// whose rules are `rules` (its step names it, its stream is the call's): `call` itself, the call
// wrapped, or a call that returns at once (and the line "[ TRICK    ] <trick> applied to <step>"
// printed, once per check and step).
std::function<void()> with_speed_trick(const std::function<void()>& call, const Rules& rules, int run, int warmups,
                                       int runs);

// Times a student's code reports against what the trace shows.
//
// In the traced call itself: the events around a part time the GPU from when it reached the first
// (the end of the work queued before the part, or later if the host was still queueing: the
// launch, the host's staging of a pageable copy) to when it reached the second (the part's end,
// or later: a pageable copy back is unstaged by the host after its last transfer). So the
// reported time must be at least the traced time of the part's work [start, end] (10% and 0.01
// ms) and at most the time from the end of the work before it (or the call's start) to the start
// of the work after it (or the call's return), plus 10% and 0.05 ms. (The work's time alone is
// too tight a ceiling: on an H100 a 32 MB pageable copy's events read 5.3 ms where its record
// says 3.9 ms, and a 0.043 ms kernel's events 0.10 ms with its launch under CUPTI.)
testing::AssertionResult reported_time_matches(double reported_ms, const Trace& trace, std::uint64_t start,
                                               std::uint64_t end, const std::string& what);
// The same for a part made of several records (kernels or copies): from the first start to the
// last end.
template <typename Record>
testing::AssertionResult reported_time_matches(double reported_ms, const Trace& trace,
                                               const std::vector<const Record*>& records, const std::string& what) {
  if (records.empty()) return testing::AssertionFailure() << what << " says " << ms_text(reported_ms) << "; the trace shows no such work";
  std::uint64_t start = UINT64_MAX, end = 0;
  for (const Record* r : records) {
    start = std::min(start, r->start);
    end = std::max(end, r->end);
  }
  return reported_time_matches(reported_ms, trace, start, end, what);
}

// From an untraced call against a traced call of the same work: `reported_ms` for `what` ("your
// copy-in time") must lie within 10% (and 0.05 ms) of the traced GPU time of the work it names
// (`traced_ms`). Under CUPTI the first launch of each kernel after tracing starts is slow on the
// host (about a millisecond on an H100), which events around it in the traced call would time.
testing::AssertionResult reported_time_matches(double reported_ms, double traced_ms, const std::string& what);

}  // namespace grader
