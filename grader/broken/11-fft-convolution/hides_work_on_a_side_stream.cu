// broken: for the speed check's large images the direct kernel runs on a non-blocking stream of its own and the call returns without waiting, so events on the default stream see no work and the output is not ready when the call returns
// fails: DirectSpeed.FiveByFiveNearCopyBandwidth
// expect: results were not ready when the call returned
// (The rest is the reference solution.)
#include "convolution.h"
#include "grader/broken/tricks.h"
#define convolve_direct reference_convolve_direct
#include "solutions/11-fft-convolution/convolution.cu"
#undef convolve_direct

void convolve_direct(const float* image, int height, int width, const float* filter, int filter_height,
                     int filter_width, float* out, cudaStream_t stream) {
  const bool large = static_cast<long long>(height) * width >= broken::kSpeedCheckSize;  // above every correctness check
  reference_convolve_direct(image, height, width, filter, filter_height, filter_width, out,
                            large ? broken::private_stream() : stream);
}
