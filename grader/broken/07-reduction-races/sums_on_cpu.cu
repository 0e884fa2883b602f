// broken: right, but copies the whole array back to the host and adds it there, so it runs at the speed of the copy and one CPU thread.
// fails: SumSpeed.ShuffleVsCub
// expect: too slow for '07-reduction-races/SumSpeed.ShuffleVsCub'
// (The rest is the reference solution.)
#include <vector>

#include "reduction.h"
#define sum_shuffle reference_sum_shuffle
#include "solutions/07-reduction-races/reduction.cu"
#undef sum_shuffle

void sum_shuffle(const float* x, int n, float* sum) {
  require_valid(n, "sum_shuffle");
  std::vector<float> host(n);
  if (n > 0) CUDA_CHECK(cudaMemcpy(host.data(), x, sizeof(float) * n, cudaMemcpyDeviceToHost));
  double total = 0;
  for (float v : host) total += v;
  const float result = static_cast<float>(total);
  CUDA_CHECK(cudaMemcpy(sum, &result, sizeof(float), cudaMemcpyHostToDevice));
}
