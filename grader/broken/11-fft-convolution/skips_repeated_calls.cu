// broken: right, but a direct call with the same image, sizes, filter and output as the call before returns at once ("the result is still there"), so timing repeated calls times nothing
// fails: DirectSpeed.FiveByFiveNearCopyBandwidth
// expect: output of the timed call is wrong: was the work skipped
// (The rest is the reference solution.)
#include "convolution.h"
#include "grader/broken/tricks.h"
#define convolve_direct reference_convolve_direct
#include "solutions/11-fft-convolution/convolution.cu"
#undef convolve_direct

void convolve_direct(const float* image, int height, int width, const float* filter, int filter_height,
                     int filter_width, float* out, cudaStream_t stream) {
  if (broken::same_as_last_call(image, height, width, filter, filter_height, filter_width, out)) return;
  reference_convolve_direct(image, height, width, filter, filter_height, filter_width, out, stream);
}
