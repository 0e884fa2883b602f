// broken: correct, but the grid is a single block of the seed's 32 x 8 threads, so one multiprocessor does all the work while the others idle.
// fails: MandelbrotSpeed.GridStride
// expect: too slow for '03-mandelbrot/MandelbrotSpeed.GridStride'
// (The rest is the reference solution.)
#include "mandelbrot.h"
#define mandelbrot reference_mandelbrot
#include "solutions/03-mandelbrot/mandelbrot.cu"
#undef mandelbrot

void mandelbrot(int* counts, int width, int height, Region region, int max_iterations) {
  if (width == 0 || height == 0) return;
  mandelbrot_kernel<<<1, dim3(32, 8)>>>(counts, width, height, region, max_iterations);
  CUDA_CHECK_LAUNCH();
}
