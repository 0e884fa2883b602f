// broken: every thread starts Philox at subsequence 0 (curand_init(seed, 0, 0, &state)), so every run draws the same points and the estimate has the error of 256 points, however many are drawn.
// fails: PiDeviceApi.EveryRunDrawsItsOwnSubsequence
// expect: every run drew the same numbers
// (The rest is the reference solution.)
#include <curand_kernel.h>
#define curand_init(seed, subsequence, offset, state) curand_init(seed, 0ull, offset, state)
#include "solutions/09-random-numbers/device_api.cu"
