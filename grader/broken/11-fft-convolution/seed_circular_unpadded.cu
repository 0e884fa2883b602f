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

FftConvolution make_fft_convolution(int height, int width, const float* filter, int filter_height, int filter_width) {
  FftConvolution fft;
  fft.height = fft.padded_height = height;  // the seed: np.zeros_like(image), response[:5, :5] = laplacian
  fft.width = fft.padded_width = width;
  fft.filter_height = filter_height;
  fft.filter_width = filter_width;
  const std::size_t spectrum_size = static_cast<std::size_t>(height) * fft.spectrum_width();
  fft.padded = stepwise::DeviceBuffer<float>(static_cast<std::size_t>(height) * width);
  fft.spectrum = stepwise::DeviceBuffer<cufftComplex>(spectrum_size);
  fft.filter_spectrum = stepwise::DeviceBuffer<cufftComplex>(spectrum_size);
  fft.forward = FftPlan(height, width, CUFFT_R2C);
  fft.inverse = FftPlan(height, width, CUFFT_C2R);
  CUDA_CHECK(cudaMemset(fft.padded.data(), 0, fft.padded.bytes()));
  CUDA_CHECK(cudaMemcpy2D(fft.padded.data(), width * sizeof(float), filter, filter_width * sizeof(float),
                          filter_width * sizeof(float), filter_height, cudaMemcpyHostToDevice));
  CUFFT_CHECK(cufftExecR2C(fft.forward.get(), fft.padded.data(), fft.filter_spectrum.data()));
  CUDA_CHECK(cudaDeviceSynchronize());
  return fft;
}

void convolve_fft(FftConvolution& fft, const float* image, float* out, cudaStream_t stream) {
  const std::size_t spectrum_size = static_cast<std::size_t>(fft.padded_height) * fft.spectrum_width();
  fft.forward.set_stream(stream);
  fft.inverse.set_stream(stream);
  CUDA_CHECK(cudaMemcpyAsync(fft.padded.data(), image, fft.padded.bytes(), cudaMemcpyDeviceToDevice, stream));
  CUFFT_CHECK(cufftExecR2C(fft.forward.get(), fft.padded.data(), fft.spectrum.data()));
  multiply_kernel<<<static_cast<unsigned>((spectrum_size + 255) / 256), 256, 0, stream>>>(
      fft.spectrum.data(), fft.filter_spectrum.data(), spectrum_size, 1.0f / (fft.padded_height * fft.padded_width));
  CUDA_CHECK_LAUNCH();
  CUFFT_CHECK(cufftExecC2R(fft.inverse.get(), fft.spectrum.data(), out));  // the whole array is the result
}
