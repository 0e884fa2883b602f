// broken: the "shuffle" sum is cub::DeviceReduce::Sum, instantiated in the student's own file: right, and as fast as the ceiling it is measured against, but no kernel of the student's runs.
// fails: SumShuffle.MatchesReferenceAtEverySize
// expect: step 4 \(sum_shuffle\) ran `[^`]*` \(CUB\) and no kernel of yours
// (The rest is the reference solution.)
#include <cub/device/device_reduce.cuh>

#include <limits>

#include "reduction.h"
#include "stepwise/buffers.h"
#define sum_shuffle reference_sum_shuffle
#include "solutions/07-reduction-races/reduction.cu"
#undef sum_shuffle

void sum_shuffle(const float* x, int n, float* sum) {
  require_valid(n, "sum_shuffle");
  // CUB's temporary storage for the largest array an int counts, allocated once.
  static const std::size_t bytes = [] {
    std::size_t b = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, b, static_cast<const float*>(nullptr), static_cast<float*>(nullptr),
                                      std::numeric_limits<int>::max()));
    return b;
  }();
  static stepwise::DeviceBuffer<unsigned char> temporary(bytes);
  std::size_t used = bytes;
  CUDA_CHECK(cub::DeviceReduce::Sum(temporary.data(), used, x, sum, n));
}
