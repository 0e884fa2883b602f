// broken: remembers the pointers and size of its last call and returns at once when called
// again with the same ones, as if the answer could not have changed
// fails: SumSpeed.ShuffleVsCub
// expect: output of the timed call is wrong
// (The rest is the reference solution.)
#include "reduction.h"
#define sum_shuffle reference_sum_shuffle
#include "solutions/07-reduction-races/reduction.cu"
#undef sum_shuffle

void sum_shuffle(const float* x, int n, float* sum) {
  static const float* last_x = nullptr;
  static float* last_sum = nullptr;
  static int last_n = -1;
  if (x == last_x && sum == last_sum && n == last_n) return;
  reference_sum_shuffle(x, n, sum);
  last_x = x;
  last_sum = sum;
  last_n = n;
}
