// broken: the 'same' window is cropped one row and one column too far into the full convolution (anchor + 1), so the result is shifted by one pixel
// fails: Fft.ImpulseGivesTheFilterCentred
// expect: shifted by -1 rows and -1 columns
// (The rest is the reference solution.)
#include "convolution.h"
#define convolve_fft reference_convolve_fft
#include "solutions/11-fft-convolution/convolution.cu"
#undef convolve_fft

void convolve_fft(FftConvolution& fft, const float* image, float* out, cudaStream_t stream) {
  convolve_padded(fft, image, inverse_scale(fft), stream);
  crop_window(fft, (fft.filter_height - 1) / 2 + 1, (fft.filter_width - 1) / 2 + 1, out, stream);  // + 1: wrong
}
