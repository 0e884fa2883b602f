// broken: mandelbrot_one_thread_per_pixel calls step 2's mandelbrot, the fixed 32 x 16 grid with grid-stride loops: every pixel is right, but it is not one thread per pixel on a grid sized to the image.
// fails: Mandelbrot.OneThreadPerPixelMatchesCpu
// expect: step 3 \(mandelbrot_one_thread_per_pixel\) launched a grid of 32 x 16 blocks of 32 x 8 threads
// (The rest is the reference solution.)
#include "mandelbrot.h"
#define mandelbrot_one_thread_per_pixel reference_mandelbrot_one_thread_per_pixel
#include "solutions/03-mandelbrot/mandelbrot.cu"
#undef mandelbrot_one_thread_per_pixel

void mandelbrot_one_thread_per_pixel(int* counts, int width, int height, Region region, int max_iterations) {
  mandelbrot(counts, width, height, region, max_iterations);
}
