// broken: for the speed check's 1000-iteration image the kernel runs on a non-blocking stream of its own and the call returns without waiting: the timer sees no work, and the picture is not ready when the call returns.
// fails: MandelbrotSpeed.GridStride
// expect: results were not ready when the call returned
// (The rest is the reference solution.)
#include "grader/broken/tricks.h"
#include "mandelbrot.h"
#define mandelbrot reference_mandelbrot
#include "solutions/03-mandelbrot/mandelbrot.cu"
#undef mandelbrot

void mandelbrot(int* counts, int width, int height, Region region, int max_iterations) {
  if (max_iterations < 1000) return reference_mandelbrot(counts, width, height, region, max_iterations);
  mandelbrot_kernel<<<dim3(32, 16), dim3(32, 8), 0, broken::private_stream()>>>(counts, width, height, region, max_iterations);
  CUDA_CHECK_LAUNCH();
}
