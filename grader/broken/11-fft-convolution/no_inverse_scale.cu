// broken: the spectra are multiplied without the 1/N that cuFFT's inverse transform leaves out, so every value is N (the padded height times width) times too large
// fails: Fft.ImpulseGivesTheFilterCentred:Fft.MatchesCpuReference
// expect: times the filter's taps: scale by 1 / N
// (The rest is the reference solution.)
#include "convolution.h"
#define convolve_fft reference_convolve_fft
#include "solutions/11-fft-convolution/convolution.cu"
#undef convolve_fft

void convolve_fft(FftConvolution& fft, const float* image, float* out, cudaStream_t stream) {
  convolve_padded(fft, image, 1.0f, stream);  // should be 1 / (padded_height * padded_width)
  crop_window(fft, (fft.filter_height - 1) / 2, (fft.filter_width - 1) / 2, out, stream);
}
