// broken: every thread starts Philox at subsequence 0, so all runs draw the same points
// fails: PiDeviceApi.EveryRunDrawsItsOwnSubsequence
// expect: every run drew the same numbers
// (The rest is the reference solution.)
#include <curand_kernel.h>
#define curand_init(seed, subsequence, offset, state) curand_init(seed, 0ull, offset, state)
#include "solutions/09-random-numbers/random_numbers.cu"
