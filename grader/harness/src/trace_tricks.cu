// The tricks grader::with_trick() plays around a traced call, and those grader::with_speed_trick()
// plays on the timed runs of a student's call (grader/trace.h): each is what a student might do
// instead of the step, and each must make the check it cheats fail.
#include <cub/device/device_reduce.cuh>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <vector>

#include "grader/trace.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"

namespace grader {
namespace {

__global__ void trick_marker(float* where) { where[threadIdx.x] = 1; }

// Spins for about `ns` nanoseconds of GPU time.
__global__ void trick_spin(unsigned long long ns) {
  const unsigned long long start = clock64();
  const unsigned long long cycles = ns * 2;  // at least 1 cycle per ns below 2 GHz: longer, never shorter
  while (clock64() - start < cycles) {
  }
}

cudaStream_t trick_stream() {
  static const cudaStream_t stream = [] {
    cudaStream_t s = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
  }();
  return stream;
}

// The rest of a call's work, after what it queued on `stream`, on a stream of its own that the
// caller's stream does not wait for: about 2 ms still running when the call returns, however long
// the call's own work runs.
void leave_work_running(cudaStream_t stream) {
  static const cudaEvent_t done = [] {
    cudaEvent_t e = nullptr;
    CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    return e;
  }();
  CUDA_CHECK(cudaEventRecord(done, stream));
  CUDA_CHECK(cudaStreamWaitEvent(trick_stream(), done, 0));
  trick_spin<<<1, 1, 0, trick_stream()>>>(2'000'000);
  CUDA_CHECK(cudaGetLastError());
}

stepwise::DeviceBuffer<float>& scratch() {
  static stepwise::DeviceBuffer<float> buffer(1024);
  return buffer;
}

void cub_reduction() {
  static stepwise::DeviceBuffer<float> sum(1);
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, scratch().data(), sum.data(), 1024));
  static stepwise::DeviceBuffer<unsigned char> temporary(bytes);
  CUDA_CHECK(cub::DeviceReduce::Sum(temporary.data(), bytes, scratch().data(), sum.data(), 1024));
}

void copy_from_host() {
  static const std::vector<float> host(1024, 1.0f);
  CUDA_CHECK(cudaMemcpy(scratch().data(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
}

struct Trick {
  const char* rule;  // the rule it breaks (Rules::has)
  std::function<std::function<void()>(const std::function<void()>&, cudaStream_t)> wrap;  // the call, its stream
  const char* says;  // what the failure of that rule says
};

const std::map<std::string, Trick>& tricks() {
  static const std::map<std::string, Trick> all = {
      {"library", {"own", [](auto call, cudaStream_t) { return [call] { call(); cub_reduction(); }; }, "(CUB)"}},
      {"host", {"own", [](auto, cudaStream_t) { return [] { copy_from_host(); }; }, "ran no kernel of yours and copied"}},
      {"legacy-stream", {"stream-given", [](auto call, cudaStream_t) {
         return [call] { call(); trick_marker<<<1, 32>>>(scratch().data()); CUDA_CHECK(cudaGetLastError()); };
       }, "ran on the legacy default stream, not on the stream you were given"}},
      {"side-stream", {"stream", [](auto call, cudaStream_t) {
         return [call] {
           call();
           trick_marker<<<1, 32, 0, trick_stream()>>>(scratch().data());
           CUDA_CHECK(cudaGetLastError());
         };
       }, "not on the stream you were given"}},
      {"synchronise", {"async", [](auto call, cudaStream_t) { return [call] { call(); CUDA_CHECK(cudaDeviceSynchronize()); }; },
                       "called cudaDeviceSynchronize: this call is asynchronous"}},
      {"left-running", {"done", [](auto call, cudaStream_t stream) {
         return [call, stream] {
           call();
           leave_work_running(stream);
         };
       }, "was still running"}},
      {"host-copy", {"device-only", [](auto call, cudaStream_t) { return [call] { call(); copy_from_host(); }; },
                     "the inputs and the output are on the device already"}},
  };
  return all;
}

// The speed tricks (grader/trace.h): on which runs of a timing the call returns at once, whether
// it leaves work running, and what the timing's failure must say.
struct SpeedTrick {
  // Whether run `run` (1-based) of `runs`, the first `warmups` untimed, returns at once.
  bool (*skips)(int run, int warmups, int runs);
  bool leaves_work_running;
  const char* says;
};

const std::map<std::string, SpeedTrick>& speed_tricks() {
  static const std::map<std::string, SpeedTrick> all = {
      {"skip-repeated", {[](int run, int, int) { return run > 1; }, false, "was the work skipped"}},
      {"checked-only", {[](int run, int warmups, int runs) { return run > warmups && run < runs; }, false,
                        "work skipped?"}},
      {"hidden-work", {[](int, int, int) { return false; }, true, "results were not ready when the call returned"}},
  };
  return all;
}

// The trick the environment asks for: nullptr for none; exits on a name the grader does not know.
const char* wanted_trick() {
  const char* wanted = std::getenv("STEPWISE_TRACE_TRICK");
  if (wanted == nullptr || *wanted == '\0') return nullptr;
  if (tricks().count(wanted) == 0 && speed_tricks().count(wanted) == 0) {
    std::fprintf(stderr, "STEPWISE_TRACE_TRICK=%s is no trick the grader knows\n", wanted);
    std::exit(2);
  }
  return wanted;
}

// What the failure of the trick applied in the running check must say (nullptr: none applied),
// and the steps it was applied to (each printed once).
const char* applied = nullptr;
std::set<std::string> applied_to;

void note_applied(const char* trick, const char* says, const std::string& step) {
  applied = says;
  if (!applied_to.insert(step).second) return;
  std::printf("[ TRICK    ] %s applied to %s\n", trick, step.c_str());
  std::fflush(stdout);
}

// With a trick asked for: after each check it was applied in, whether the check failed saying
// what the broken rule says ("[ CAUGHT   ]") or not ("[ MISSED   ]").
class TrickListener : public testing::EmptyTestEventListener {
  void OnTestStart(const testing::TestInfo&) override {
    applied = nullptr;
    applied_to.clear();
  }
  void OnTestEnd(const testing::TestInfo& test) override {
    if (applied == nullptr) return;
    bool said = false;
    const testing::TestResult& result = *test.result();
    for (int i = 0; i < result.total_part_count(); ++i)
      said = said || (result.GetTestPartResult(i).failed() &&
                      std::string(result.GetTestPartResult(i).message()).find(applied) != std::string::npos);
    std::printf("[ %s ] %s.%s\n", said ? "CAUGHT  " : "MISSED  ", test.test_suite_name(), test.name());
    applied = nullptr;
  }
};

}  // namespace

void install_trick_listener() {
  const char* wanted = std::getenv("STEPWISE_TRACE_TRICK");
  if (wanted != nullptr && *wanted != '\0') testing::UnitTest::GetInstance()->listeners().Append(new TrickListener);
}

std::function<void()> with_trick(const std::function<void()>& call, const Rules& rules) {
  const char* wanted = wanted_trick();
  if (wanted == nullptr) return call;
  const auto found = tricks().find(wanted);
  if (found == tricks().end() || !rules.has(found->second.rule)) return call;  // a speed trick, or another rule
  note_applied(wanted, found->second.says, rules.step());
  return found->second.wrap(call, rules.stream());
}

std::function<void()> with_speed_trick(const std::function<void()>& call, const Rules& rules, int run, int warmups,
                                       int runs) {
  const char* wanted = wanted_trick();
  if (wanted == nullptr) return call;
  const auto found = speed_tricks().find(wanted);
  if (found == speed_tricks().end()) return call;  // a trace trick
  const SpeedTrick& trick = found->second;
  if (trick.skips(run, warmups, runs)) {
    note_applied(wanted, trick.says, rules.step());
    return [] {};  // "the output is still there", or "this one is not looked at"
  }
  if (!trick.leaves_work_running) return call;
  note_applied(wanted, trick.says, rules.step());
  const cudaStream_t stream = rules.stream();
  return [call, stream] {
    call();
    leave_work_running(stream);
  };
}

}  // namespace grader
