// broken: right, but a call with the same output and image size as the call before returns at once ("the picture is still there"), whatever the view, so timing repeated calls times nothing.
// fails: MandelbrotSpeed.GridStride
// expect: output of the timed call is wrong: was the work skipped
// (The rest is the reference solution.)
#include "grader/broken/tricks.h"
#include "mandelbrot.h"
#define mandelbrot reference_mandelbrot
#include "solutions/03-mandelbrot/mandelbrot.cu"
#undef mandelbrot

void mandelbrot(int* counts, int width, int height, Region region, int max_iterations) {
  if (broken::same_as_last_call(counts, width, height, max_iterations)) return;
  reference_mandelbrot(counts, width, height, region, max_iterations);
}
