#pragma once
// Lesson 11: 2-D convolution of a grey image with a small filter, directly and through cuFFT,
// and where one overtakes the other (seed 000: a 512 x 512 image and a 5 x 5 Laplacian-like
// filter, convolved by cuFFT and by scipy.signal.fftconvolve(image, filter, mode='same')).
//
// Images and filters are row-major floats: pixel (y, x) of an image `width` wide is
// image[y * width + x]. Every function computes SciPy's 'same' convolution with a zero boundary:
//
//   out[y][x] = sum over i < kh, j < kw of  filter[i][j] * image[y + ay - i][x + ax - j]
//
// with the anchor ay = (kh - 1) / 2, ax = (kw - 1) / 2 (integer division, as SciPy centres an
// even filter) and image values outside the image taken as 0. The output has the image's size.
// Note the minus signs: a convolution flips the filter; with plus signs it is a correlation.
#include <cuda_runtime.h>
#include <cufft.h>

#include <vector>

#include "fft_plan.h"
#include "stepwise/buffers.h"

constexpr int kMaxFilterSide = 63;     // filters of 1 x 1 to 63 x 63 taps, odd or even
constexpr int kMaxImageSide = 32768;   // images of 1 x 1 to 32768 x 32768 pixels

// The seed's 5 x 5 Laplacian-like filter. Its taps add up to 0: flat areas give 0, edges do not.
constexpr int kSeedFilterSide = 5;
constexpr float kSeedFilter[kSeedFilterSide * kSeedFilterSide] = {
    -4, -1, 0, -1, -4,  //
    -1, 2,  3, 2,  -1,  //
    0,  3,  4, 3,  0,   //
    -1, 2,  3, 2,  -1,  //
    -4, -1, 0, -1, -4};

// Every function throws std::invalid_argument, before it changes anything, for an image side
// outside 1..kMaxImageSide or a filter side outside 1..kMaxFilterSide, and stepwise::CudaError
// (or std::runtime_error from cuFFT) when the GPU fails.

// Step 1: the direct convolution. `image` and `out` are device pointers (height * width floats,
// not overlapping), `filter` a host pointer (filter_height * filter_width floats). Launches on
// `stream` and returns without waiting for the GPU.
void convolve_direct(const float* image, int height, int width, const float* filter, int filter_height,
                     int filter_width, float* out, cudaStream_t stream = nullptr);

// Step 2a: the smallest m >= n whose only prime factors are 2, 3, 5 and 7 (cuFFT is fastest for
// such sizes). n from 1 to 2^30.
int fft_friendly_size(int n);

// Step 2: the same convolution through FFTs, for many images of one size and one filter.
// Everything that is done once lives in an FftConvolution, as cuFFT keeps its own one-time work
// in a plan: the padded size (at least (height + filter_height - 1) x (width + filter_width - 1)
// and at least 2 x 2, each side rounded up by fft_friendly_size), the buffers, the two plans, and the spectrum of the
// zero-padded filter.
struct FftConvolution {
  int height = 0, width = 0, filter_height = 0, filter_width = 0;
  int padded_height = 0, padded_width = 0;
  int spectrum_width() const { return padded_width / 2 + 1; }  // what a real-to-complex FFT keeps
  stepwise::DeviceBuffer<float> padded;                  // padded_height x padded_width
  stepwise::DeviceBuffer<cufftComplex> spectrum;         // padded_height x spectrum_width()
  stepwise::DeviceBuffer<cufftComplex> filter_spectrum;  // the same size
  FftPlan forward, inverse;                              // real-to-complex, complex-to-real
};

// Step 2: the one-time work, for images of height x width and a host `filter` of
// filter_height x filter_width taps. Waits for the GPU before it returns.
FftConvolution make_fft_convolution(int height, int width, const float* filter, int filter_height, int filter_width);

// Step 2: the work for each image (device pointers, height x width floats, not overlapping): pad
// the image, transform it, multiply by the filter's spectrum and 1/N, transform back, crop the
// 'same' window. Launches on `stream` and returns without waiting for the GPU.
void convolve_fft(FftConvolution& fft, const float* image, float* out, cudaStream_t stream = nullptr);

// Step 3: the crossover. For each filter size s (square, s x s, random taps) the direct and the
// FFT convolution of one random height x width image, each the median of several timed runs
// with CUDA events after a warm-up run; the FftConvolution is made before its timing starts.
struct CrossoverPoint {
  int filter_side = 0;
  float direct_ms = 0;
  float fft_ms = 0;
};
std::vector<CrossoverPoint> measure_crossover(int height, int width, const std::vector<int>& filter_sides);

// Step 3: the smallest filter side from which the FFT is faster than the direct convolution at
// that size and every larger size measured (points in increasing order of filter_side); 0 when
// the FFT is not faster at the largest size.
int fft_wins_from(const std::vector<CrossoverPoint>& points);
