// broken: every convolve_fft call makes its two cuFFT plans afresh (and destroys the old ones): right, and slow for all but the largest images
// fails: FftSpeed.SeedImageKeepsPlansOut
// expect: too slow for '11-fft-convolution/FftSpeed.SeedImageKeepsPlansOut'
// (The rest is the reference solution.)
#include "convolution.h"
#define convolve_fft reference_convolve_fft
#include "solutions/11-fft-convolution/convolution.cu"
#undef convolve_fft

void convolve_fft(FftConvolution& fft, const float* image, float* out, cudaStream_t stream) {
  fft.forward = FftPlan(fft.padded_height, fft.padded_width, CUFFT_R2C);
  fft.inverse = FftPlan(fft.padded_height, fft.padded_width, CUFFT_C2R);
  reference_convolve_fft(fft, image, out, stream);
}
