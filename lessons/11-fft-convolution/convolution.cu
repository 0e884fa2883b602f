// Lesson 11: FFT convolution. Read README.md first: each TODO(step N) below is "Step N" there.
#include "convolution.h"

#include <algorithm>
#include <cstddef>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "image_grid.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"
#include "stepwise/todo.h"

// ---- Step 1: direct convolution --------------------------------------------------------------

// The filter's taps, copied here by convolve_direct before each launch (constant memory: every
// thread of a warp reads the same tap at the same time, and constant memory serves a warp that
// in one go).
__constant__ float c_filter[kMaxFilterSide * kMaxFilterSide];

__global__ void convolve_direct_kernel(const float* image, int height, int width, int filter_height,
                                       int filter_width, float* out) {
  // TODO(step 1): one thread per output pixel (x, y) of a 2-D grid; return when it lies outside
  // the image. Sum filter[i][j] * image[y + ay - i][x + ax - j] over the taps (c_filter holds
  // filter_height rows of filter_width taps), skipping image pixels outside the image (the zero
  // boundary), with the anchor of convolution.h. Write the sum to out[y * width + x].
}

void convolve_direct(const float* image, int height, int width, const float* filter, int filter_height,
                     int filter_width, float* out, cudaStream_t stream) {
  require_sizes(height, width, filter_height, filter_width);
  // TODO(step 1): copy the filter_height * filter_width taps into c_filter
  // (cudaMemcpyToSymbolAsync(..., cudaMemcpyHostToDevice, stream)), launch convolve_direct_kernel
  // on `stream` with blocks of block_shape() and grid_for(height, width), and check the launch with
  // CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(1);
}

// ---- Step 2: FFT convolution -----------------------------------------------------------------

int fft_friendly_size(int n) {
  // TODO(step 2): throw std::invalid_argument for n outside 1..2^30; otherwise return the
  // first m >= n that is 1 after dividing out every factor 2, 3, 5 and 7. Delete the line below.
  STEPWISE_TODO(2);
}

__global__ void pad_kernel(const float* image, int height, int width, float* padded, int padded_height,
                           int padded_width) {
  // TODO(step 2): one thread per element of the padded array: the image's pixel where (y, x)
  // lies inside the image, 0 everywhere else.
}

__global__ void multiply_kernel(cufftComplex* spectrum, const cufftComplex* filter_spectrum, std::size_t n,
                                float scale) {
  // TODO(step 2): one thread per complex value: spectrum[i] = spectrum[i] * filter_spectrum[i]
  // * scale, as complex numbers ((a + bi)(c + di) = (ac - bd) + (ad + bc)i).
}

__global__ void crop_kernel(const float* padded, int padded_width, int ay, int ax, float* out, int height,
                            int width) {
  // TODO(step 2): one thread per output pixel: out[y][x] = padded[y + ay][x + ax].
}

FftConvolution make_fft_convolution(int height, int width, const float* filter, int filter_height, int filter_width) {
  require_sizes(height, width, filter_height, filter_width);
  // TODO(step 2): return an FftConvolution with everything convolve_fft needs: the sizes; the
  // padded size (each side fft_friendly_size of image + filter - 1, at least 2); the buffers
  // padded, spectrum and filter_spectrum; a real-to-complex and a complex-to-real FftPlan of the
  // padded size (README: "Plans"); and the filter's spectrum: its taps in the top-left corner of
  // an otherwise zero padded array (cudaMemcpy2D), transformed forward. Wait for the GPU before
  // returning. Delete the line below.
  STEPWISE_TODO(2);
}

void convolve_fft(FftConvolution& fft, const float* image, float* out, cudaStream_t stream) {
  // TODO(step 2): set both plans' stream, then on `stream`: pad_kernel (image -> padded),
  // cufftExecR2C (padded -> spectrum), multiply_kernel with scale 1 / (padded_height *
  // padded_width), cufftExecC2R (spectrum -> padded), crop_kernel with the anchor
  // ((filter_height - 1) / 2, (filter_width - 1) / 2). Check every launch and cuFFT call.
  // Delete the line below.
  STEPWISE_TODO(2);
}

// ---- Step 3: the crossover -------------------------------------------------------------------

std::vector<CrossoverPoint> measure_crossover(int height, int width, const std::vector<int>& filter_sides) {
  // TODO(step 3): check the sizes (require_side), make one random image on the GPU and an output
  // buffer. For each side: random side x side taps, an FftConvolution made before any timing, then
  // direct_ms and fft_ms, each the median of 5 runs timed with stepwise::time_gpu_ms after one
  // untimed run. Return one CrossoverPoint per side, in the order given. Delete the line below.
  STEPWISE_TODO(3);
}

int fft_wins_from(const std::vector<CrossoverPoint>& points) {
  // TODO(step 3): walk from the largest side down while the FFT is faster; return the last side
  // where it still was, or 0 when it is not faster at the largest. Delete the line below.
  STEPWISE_TODO(3);
}
