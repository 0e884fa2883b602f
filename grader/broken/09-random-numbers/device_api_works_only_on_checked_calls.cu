// broken: the device-API estimate of the speed check's 2^28 points does its work only on the calls whose output the grader checks: the grader times 2 warm-up calls and 15 timed ones, checks the estimate of the last, then makes one more call (traced, checked), so the 3rd to 16th call of each 18 return 0 at once. The median timed call is empty: an impossible figure, caught only by the ceiling from the grader's own kernel for the same draws (without one it read as a great speedup).
// fails: RandomSpeed.DeviceApiBeatsHostApiPipeline
// expect: impossible figure for '09-random-numbers/RandomSpeed\.DeviceApiBeatsHostApiPipeline'
// (The rest is the reference solution.)
#include "random_numbers.h"
#define estimate_pi_device_api reference_estimate_pi_device_api
#include "solutions/09-random-numbers/device_api.cu"
#undef estimate_pi_device_api

double estimate_pi_device_api(unsigned long long seed, std::size_t n) {
  // The 3rd to 16th of each 18 calls in a row for the speed check's size (the correctness checks
  // use at most 2^26 points); the seed is new on every call, so only n is compared.
  static std::size_t last = 0;
  static int count = 0;
  count = count > 0 && n == last ? count + 1 : 1;
  last = n;
  const int place = (count - 1) % 18 + 1;
  if (n >= (std::size_t{1} << 27) && place >= 3 && place <= 16) return 0;
  return reference_estimate_pi_device_api(seed, n);
}
