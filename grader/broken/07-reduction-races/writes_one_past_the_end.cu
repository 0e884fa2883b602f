// broken: the stencil computes one output too many (n + 1, an off-by-one in the size), so it writes one float past the end of the output and reads one past the end of z.
// fails: Smooth.MatchesCpuAtEverySize
// expect: wrote past the end of the output
// (The rest is the reference solution.)
#include "reduction.h"
#define smooth reference_smooth
#include "solutions/07-reduction-races/reduction.cu"
#undef smooth

void smooth(const float* z, const float* a, float* out, int n, int s) {
  reference_smooth(z, a, out, n == 0 ? 0 : n + 1, s);
}
