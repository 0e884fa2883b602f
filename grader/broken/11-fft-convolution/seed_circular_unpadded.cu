// broken: the seed's cuFFT version: the filter in the corner of an unpadded array of the image's size, no crop: a circular convolution, shifted by the anchor and wrapped around the edges
// fails: Fft.ImpulseGivesTheFilterCentred
// expect: the convolution wrapped around the image's edges
// (The rest is the reference solution.)
#include "convolution.h"
#define make_fft_convolution reference_make_fft_convolution
#define convolve_fft reference_convolve_fft
#include "solutions/11-fft-convolution/convolution.cu"
#undef make_fft_convolution
#undef convolve_fft

// The seed: np.zeros_like(image) with response[:5, :5] = laplacian, i.e. the filter in the corner
// of an array of the image's own size.
FftConvolution make_fft_convolution(int height, int width, const float* filter, int filter_height, int filter_width) {
  require_sizes(height, width, filter_height, filter_width);
  return plan_fft_convolution(height, width, filter, filter_height, filter_width, height, width);
}

// The whole circular convolution is the result: no crop (a window starting at (0, 0)).
void convolve_fft(FftConvolution& fft, const float* image, float* out, cudaStream_t stream) {
  convolve_padded(fft, image, inverse_scale(fft), stream);
  crop_window(fft, 0, 0, out, stream);
}
