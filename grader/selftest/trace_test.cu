// Self-tests of the trace of what ran (grader/trace.h), on the GPU (the TraceMessages ones run
// anywhere): each rule passes the honest call of a pretend student (trace_student.cu) and fails
// each trick, saying what ran.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "grader/gpu.h"
#include "grader/inputs.h"
#include "grader/trace.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"
#include "trace_student.h"

namespace {

constexpr int kN = 1 << 20;

// A non-blocking stream of the check's, as checks pass to APIs that take one.
struct Stream {
  cudaStream_t s = nullptr;
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s); }
};

// The trace of `call`, or a skip where CUPTI cannot trace.
#define TRACE_OR_SKIP(trace_name, call)                                                        \
  const grader::Trace trace_name = grader::trace(call);                                        \
  if (!trace_name.available) GTEST_SKIP() << "no trace here: " << trace_name.unavailable_reason

// The rules' verdict on the trace must be a failure whose message holds `words`.
testing::AssertionResult fails_saying(const grader::Rules& rules, const grader::Trace& t, const std::string& words) {
  const testing::AssertionResult result = rules.check(t);
  if (result) return testing::AssertionFailure() << "the rules passed; the trace was:\n" << t.listing();
  if (std::string(result.message()).find(words) == std::string::npos)
    return testing::AssertionFailure() << "the failure does not say '" << words << "': " << result.message();
  return testing::AssertionSuccess();
}

TEST(GpuTrace, HonestAsynchronousCallPasses) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> x(kN);
  Stream stream;
  TRACE_OR_SKIP(t, [&] { pretend::scale(x.data(), kN, stream.s); });
  ASSERT_EQ(t.kernels.size(), 1u) << t.listing();
  EXPECT_EQ(t.kernels[0].origin, grader::Origin::student) << t.listing();
  EXPECT_EQ(t.kernels[0].block.x, 256u);
  EXPECT_EQ(t.kernels[0].grid.x, static_cast<unsigned>(kN / 256));
  EXPECT_NE(t.kernels[0].stream, t.legacy_stream);
  EXPECT_TRUE(grader::Rules("scale").own_kernels().on_stream(stream.s).returns_at_once().no_host_copies().check(t));
}

TEST(GpuTrace, LegacyDefaultStreamIsCaught) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> x(kN);
  Stream stream;
  TRACE_OR_SKIP(t, [&] { pretend::scale_on_legacy_stream(x.data(), kN, stream.s); });
  EXPECT_TRUE(fails_saying(grader::Rules("scale").on_stream(stream.s), t,
                           "ran on the legacy default stream, not on the stream you were given"));
}

TEST(GpuTrace, StreamOfItsOwnIsCaught) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> x(kN);
  Stream stream;
  TRACE_OR_SKIP(t, [&] { pretend::scale_on_own_stream(x.data(), kN, stream.s); });
  EXPECT_TRUE(fails_saying(grader::Rules("scale").on_stream(stream.s), t, "not on the stream you were given"));
}

TEST(GpuTrace, WaitingInAnAsynchronousCallIsCaught) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> x(kN);
  Stream stream;
  TRACE_OR_SKIP(t, [&] { pretend::scale_and_wait(x.data(), kN, stream.s); });
  EXPECT_TRUE(fails_saying(grader::Rules("scale").returns_at_once(), t, "called cudaStreamSynchronize"));
}

TEST(GpuTrace, WorkLeftRunningIsCaught) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> x(kN);
  TRACE_OR_SKIP(t, [&] { pretend::scale_left_running(x.data(), kN); });
  EXPECT_TRUE(fails_saying(grader::Rules("scale").done_when_returned(), t, "after the call returned"));
  EXPECT_TRUE(fails_saying(grader::Rules("scale").ordered_before_next_work(), t,
                           "after the caller's next work on its stream began"));
  TRACE_OR_SKIP(finished, [&] { pretend::scale_staged_in_shared(x.data(), kN); });
  EXPECT_TRUE(grader::Rules("scale").done_when_returned().check(finished));
}

// Work on a stream of the call's own that the caller's stream is made to wait for is ordered
// before the caller's next work: no failure.
TEST(GpuTrace, WorkJoinedBackToTheCallersStreamPasses) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> x(kN);
  Stream stream;
  const grader::Trace t = grader::trace([&] { pretend::scale_joined_back(x.data(), kN, stream.s); }, stream.s);
  if (!t.available) GTEST_SKIP() << "no trace here: " << t.unavailable_reason;
  EXPECT_GT(t.caller_next_at, 0u);
  EXPECT_TRUE(grader::Rules("scale").ordered_before_next_work().check(t)) << t.listing();
  EXPECT_TRUE(fails_saying(grader::Rules("scale").on_stream(stream.s), t, "not on the stream you were given"));
}

TEST(GpuTrace, WorkOnTheHostIsCaught) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> x(kN);
  TRACE_OR_SKIP(t, [&] { pretend::scale_on_host(x.data(), kN); });
  EXPECT_TRUE(fails_saying(grader::Rules("scale").own_kernels(), t, "ran no kernel of yours and copied"));
  EXPECT_TRUE(fails_saying(grader::Rules("scale").no_host_copies(), t, "device to host"));
}

TEST(GpuTrace, SharedMemoryIsSeen) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> x(kN);
  Stream stream;
  TRACE_OR_SKIP(staged, [&] { pretend::scale_staged_in_shared(x.data(), kN); });
  EXPECT_TRUE(grader::Rules("tiled").own_kernels().shared_memory(1024).check(staged)) << staged.listing();
  TRACE_OR_SKIP(plain, [&] { pretend::scale(x.data(), kN, stream.s); });
  EXPECT_TRUE(fails_saying(grader::Rules("tiled").shared_memory(), plain, "no kernel of yours used shared memory"));
  EXPECT_TRUE(fails_saying(grader::Rules("tiled").kernels_differ_from(plain, "step 1"),
                           grader::trace([&] { pretend::scale(x.data(), kN, stream.s); }), "the kernel of step 1"));
}

TEST(GpuTrace, LibraryKernelsAreNotTheStudents) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> x(kN), sum(1), c(512 * 512);
  grader::refill_random(x.data(), kN, -1, 1);
  TRACE_OR_SKIP(cub, [&] { pretend::sum_with_cub(x.data(), sum.data(), kN); });
  EXPECT_TRUE(fails_saying(grader::Rules("shuffle sum").own_kernels(), cub, "(CUB) and no kernel of yours"));
  TRACE_OR_SKIP(cublas, [&] { pretend::square_with_cublas(x.data(), c.data(), 512); });
  EXPECT_TRUE(fails_saying(grader::Rules("register-blocked matmul").own_kernels(), cublas, "(cuBLAS)"));
  EXPECT_TRUE(grader::Rules("matmul_cublas").own_kernels().library("cuBLAS").check(cublas)) << cublas.listing();
  std::printf("CUB:\n%scuBLAS:\n%s", cub.listing().c_str(), cublas.listing().c_str());
}

TEST(GpuTrace, ReportedTimesAreHeldAgainstTheTrace) {
  REQUIRE_GPU();
  stepwise::DeviceBuffer<float> x(1 << 26);
  float reported = 0;
  auto timed_call = [&] {
    stepwise::EventTimer timer;
    timer.start();
    pretend::scale(x.data(), 1 << 26, nullptr);
    reported = timer.stop();
  };
  timed_call();  // the first call loads the kernel's module: a warm-up, as every timing has
  timed_call();  // untraced: the time the student's code reports
  const float untraced = reported;
  TRACE_OR_SKIP(t, timed_call);
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_TRUE(grader::reported_time_matches(untraced, t.kernel_span_ms(), "the kernel's time"));
  EXPECT_FALSE(grader::reported_time_matches(untraced / 3, t.kernel_span_ms(), "the kernel's time"));
  EXPECT_FALSE(grader::reported_time_matches(untraced * 1.5, t.kernel_span_ms(), "the kernel's time"));
}

}  // namespace

// Without a GPU: how failure messages name kernels and join the rules a call broke.
TEST(TraceMessages, KernelNamesLoseOnlyTheirParameterList) {
  EXPECT_EQ(grader::kernel_name_without_parameters("grader::(anonymous namespace)::trick_spin(unsigned long long)"),
            "grader::(anonymous namespace)::trick_spin");
  EXPECT_EQ(grader::kernel_name_without_parameters("void scan_kernel<float, 4>(float const*, float*, int)"),
            "void scan_kernel<float, 4>");
  EXPECT_EQ(grader::kernel_name_without_parameters("void kernel_wrapper<unsigned int, &(f(int))>(int)"),
            "void kernel_wrapper<unsigned int, &(f(int))>");
  EXPECT_EQ(grader::kernel_name_without_parameters("vector_add_kernel"), "vector_add_kernel");
  EXPECT_EQ(grader::kernel_display_name("void scan_kernel<float, 4>(float const*, float*, int)"), "scan_kernel<float, 4>");
  EXPECT_EQ(grader::kernel_short_name("void scan_kernel<float, 4>(float const*, float*, int)"), "scan_kernel<float, 4>");
  const std::string long_name(95, 'k');
  EXPECT_EQ(grader::kernel_short_name(long_name + "(int)"), long_name.substr(0, 87) + "...");
  EXPECT_EQ(grader::kernel_short_name(long_name.substr(0, 90)), long_name.substr(0, 90));
}

TEST(TraceMessages, BrokenRulesReadAsOneSentence) {
  const grader::Trace empty;
  grader::Rules rules("step 2 (scan)");
  rules.also([](const grader::Trace&) { return testing::AssertionFailure() << "your kernel `k` ran on stream 7"; })
      .also([](const grader::Trace&) { return testing::AssertionFailure() << "called cudaStreamSynchronize"; });
  EXPECT_STREQ(rules.check(empty).message(), "step 2 (scan): your kernel `k` ran on stream 7; and called cudaStreamSynchronize");
  grader::Rules verbs("step 1");
  verbs.also([](const grader::Trace&) { return testing::AssertionFailure() << "ran `cublas`"; })
      .also([](const grader::Trace&) { return testing::AssertionFailure() << "your kernel `k` was still running"; });
  EXPECT_STREQ(verbs.check(empty).message(), "step 1 ran `cublas`; and your kernel `k` was still running");
}
