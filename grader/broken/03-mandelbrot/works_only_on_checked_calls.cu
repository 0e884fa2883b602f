// broken: the grid-stride image of the speed checks (768 x 512, 1000 iterations) is rendered only on the calls whose image the grader used to check: of each 18 calls in a row the 3rd to 16th return at once with nothing done (a timing makes 2 warm-up calls, 15 timed, one traced, and checked the image of the last timed and the traced). The median timed call is empty, and no ceiling can tell it from a fast call (the work no kernel may skip takes about as long as an empty call, see the ceiling's comment), so the grader checks a few random pixels after every call: the first skipped call leaves poison there.
// fails: MandelbrotSpeed.GridStride:MandelbrotSpeed.GridStrideNearGraderKernel
// expect: the output of a call the grader timed is wrong \(run [0-9]+
// (The rest is the reference solution.)
#include "grader/broken/checked_calls.h"
#include "mandelbrot.h"
#define mandelbrot reference_mandelbrot
#include "solutions/03-mandelbrot/mandelbrot.cu"
#undef mandelbrot

void mandelbrot(int* counts, int width, int height, Region region, int max_iterations) {
  if (width == 768 && height == 512 && max_iterations == 1000 &&
      broken::unchecked_call<0>(18, counts, width, height, max_iterations))
    return;
  reference_mandelbrot(counts, width, height, region, max_iterations);
}
