// broken: the spectra are multiplied without the 1/N that cuFFT's inverse transform leaves out, so every value is N (the padded height times width) times too large
// fails: Fft.ImpulseGivesTheFilterCentred:Fft.MatchesCpuReference
// expect: times the filter's taps: scale by 1 / N
// (The rest is the reference solution.)
#include "convolution.h"
#define convolve_fft reference_convolve_fft
#include "solutions/11-fft-convolution/convolution.cu"
#undef convolve_fft

void convolve_fft(FftConvolution& fft, const float* image, float* out, cudaStream_t stream) {
  const std::size_t spectrum_size = static_cast<std::size_t>(fft.padded_height) * fft.spectrum_width();
  fft.forward.set_stream(stream);
  fft.inverse.set_stream(stream);
  pad_kernel<<<grid_for(fft.padded_height, fft.padded_width), block_shape(), 0, stream>>>(
      image, fft.height, fft.width, fft.padded.data(), fft.padded_height, fft.padded_width);
  CUDA_CHECK_LAUNCH();
  CUFFT_CHECK(cufftExecR2C(fft.forward.get(), fft.padded.data(), fft.spectrum.data()));
  multiply_kernel<<<static_cast<unsigned>((spectrum_size + 255) / 256), 256, 0, stream>>>(
      fft.spectrum.data(), fft.filter_spectrum.data(), spectrum_size, 1.0f);
  CUDA_CHECK_LAUNCH();
  CUFFT_CHECK(cufftExecC2R(fft.inverse.get(), fft.spectrum.data(), fft.padded.data()));
  crop_kernel<<<grid_for(fft.height, fft.width), block_shape(), 0, stream>>>(
      fft.padded.data(), fft.padded_width, (fft.filter_height - 1) / 2, (fft.filter_width - 1) / 2, out, fft.height,
      fft.width);
  CUDA_CHECK_LAUNCH();
}
