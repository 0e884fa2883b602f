// broken: on large arrays the shuffle sum adds only the first seven eighths of the array and scales the result by 8/7, an estimate within a few millionths of the true sum on random data: caught only by inputs whose sum must be exact.
// fails: SumShuffle.MatchesReferenceAtEverySize
// expect: n = [0-9]+: the sum is .* on inputs where no rounding happens
// (The rest is the reference solution.)
#include "reduction.h"
#define sum_shuffle reference_sum_shuffle
#include "solutions/07-reduction-races/reduction.cu"
#undef sum_shuffle

namespace {
__global__ void scale(float* value, float factor) { *value *= factor; }
}  // namespace

void sum_shuffle(const float* x, int n, float* sum) {
  if (n < (1 << 20)) {
    reference_sum_shuffle(x, n, sum);
    return;
  }
  const int part = n / 8 * 7;
  reference_sum_shuffle(x, part, sum);
  scale<<<1, 1>>>(sum, static_cast<float>(n) / part);
  CUDA_CHECK_LAUNCH();
}
