// The tricks grader::with_trick() plays around a traced call (grader/trace.h): each is what a
// student might do instead of the step, and each must make the rule it breaks fail.
#include <cub/device/device_reduce.cuh>

#include <cstdio>
#include <cstdlib>
#include <map>
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
  std::function<std::function<void()>(const std::function<void()>&)> wrap;
  const char* says;  // what the failure of that rule says
};

const std::map<std::string, Trick>& tricks() {
  static const std::map<std::string, Trick> all = {
      {"library", {"own", [](auto call) { return [call] { call(); cub_reduction(); }; }, "(CUB)"}},
      {"host", {"own", [](auto) { return [] { copy_from_host(); }; }, "ran no kernel of yours and copied"}},
      {"legacy-stream", {"stream-given", [](auto call) {
         return [call] { call(); trick_marker<<<1, 32>>>(scratch().data()); CUDA_CHECK(cudaGetLastError()); };
       }, "ran on the legacy default stream, not on the stream you were given"}},
      {"side-stream", {"stream", [](auto call) {
         return [call] {
           call();
           trick_marker<<<1, 32, 0, trick_stream()>>>(scratch().data());
           CUDA_CHECK(cudaGetLastError());
         };
       }, "not on the stream you were given"}},
      {"synchronise", {"async", [](auto call) { return [call] { call(); CUDA_CHECK(cudaDeviceSynchronize()); }; },
                       "called cudaDeviceSynchronize: this call is asynchronous"}},
      {"left-running", {"done", [](auto call) {
         return [call] {
           call();
           trick_spin<<<1, 1, 0, trick_stream()>>>(2'000'000);
           CUDA_CHECK(cudaGetLastError());
         };
       }, "was still running"}},
      {"host-copy", {"device-only", [](auto call) { return [call] { call(); copy_from_host(); }; },
                     "the inputs and the output are on the device already"}},
  };
  return all;
}

// Which trick ran in the running check, and what its failure must say.
const Trick* applied = nullptr;

// With a trick asked for: after each check it was applied in, whether the check failed saying
// what the broken rule says ("[ CAUGHT   ]") or not ("[ MISSED   ]").
class TrickListener : public testing::EmptyTestEventListener {
  void OnTestStart(const testing::TestInfo&) override { applied = nullptr; }
  void OnTestEnd(const testing::TestInfo& test) override {
    if (applied == nullptr) return;
    bool said = false;
    const testing::TestResult& result = *test.result();
    for (int i = 0; i < result.total_part_count(); ++i)
      said = said || (result.GetTestPartResult(i).failed() &&
                      std::string(result.GetTestPartResult(i).message()).find(applied->says) != std::string::npos);
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
  const char* wanted = std::getenv("STEPWISE_TRACE_TRICK");
  if (wanted == nullptr || *wanted == '\0') return call;
  const auto found = tricks().find(wanted);
  if (found == tricks().end()) {
    std::fprintf(stderr, "STEPWISE_TRACE_TRICK=%s is no trick the grader knows\n", wanted);
    std::exit(2);
  }
  if (!rules.has(found->second.rule)) return call;
  applied = &found->second;
  std::printf("[ TRICK    ] %s applied to %s\n", wanted, rules.step().c_str());
  std::fflush(stdout);
  return found->second.wrap(call);
}

}  // namespace grader
