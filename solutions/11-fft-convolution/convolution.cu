// Lesson 11 reference solution: 'same' convolution directly (one thread per output pixel, the
// filter in constant memory) and through cuFFT (zero padding, real-to-complex transforms, a
// pointwise multiply, the 'same' window cropped), and the crossover between the two. The
// straightforward code for the README's steps; tuned/convolution_tuned.cu goes further for speed
// (README: "The tuned version").
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

// ---- Step 1: direct convolution --------------------------------------------------------------

// [docs:constant-filter]
// The filter lives in constant memory: every thread of a warp reads the same tap at the same
// time, which constant memory serves to the whole warp in one go.
__constant__ float c_filter[kMaxFilterSide * kMaxFilterSide];
// [docs:end]

// [docs:filter-to-constant]
// Copies a host filter's taps into c_filter, in the order of `stream`: the kernels launched on it
// afterwards read them.
static void copy_filter_to_constant(const float* filter, int filter_height, int filter_width, cudaStream_t stream) {
  const std::size_t taps = static_cast<std::size_t>(filter_height) * filter_width;
  CUDA_CHECK(cudaMemcpyToSymbolAsync(c_filter, filter, taps * sizeof(float), 0, cudaMemcpyHostToDevice, stream));
}
// [docs:end]

// One thread per output pixel, for any filter size.
__global__ void convolve_direct_kernel(const float* __restrict__ image, int height, int width, int filter_height,
                                       int filter_width, float* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int ay = (filter_height - 1) / 2, ax = (filter_width - 1) / 2;
  float sum = 0.0f;
  for (int i = 0; i < filter_height; ++i) {
    const int row = y + ay - i;  // minus: the filter is flipped (a convolution)
    if (row < 0 || row >= height) continue;
    const float* image_row = image + static_cast<std::size_t>(row) * width;
    for (int j = 0; j < filter_width; ++j) {
      const int column = x + ax - j;
      if (column >= 0 && column < width) sum += c_filter[i * filter_width + j] * image_row[column];
    }
  }
  out[static_cast<std::size_t>(y) * width + x] = sum;
}

// For the small square filters worth a kernel of their own (3 x 3, 5 x 5), for speed. The size is
// known at compile time, so every loop unrolls, and each thread computes kRowsPerThread pixels of
// one column. Neighbouring output rows share input rows: each input value is loaded once into a
// register and serves up to K outputs, which cuts the loads per pixel from K * K to about
// K * (1 + (K - 1) / kRowsPerThread).
constexpr int kRowsPerThread = 8;

template <int K>
__global__ void convolve_small_kernel(const float* __restrict__ image, int height, int width,
                                      float* __restrict__ out) {
  constexpr int kAnchor = (K - 1) / 2;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * kRowsPerThread;
  if (x >= width || y0 >= height) return;
  float sum[kRowsPerThread] = {};
#pragma unroll
  for (int r = 0; r < kRowsPerThread + K - 1; ++r) {
    const int row = y0 + kAnchor - (K - 1) + r;  // the input rows that outputs y0 ... y0 + 7 read
    if (row < 0 || row >= height) continue;
    const float* image_row = image + static_cast<std::size_t>(row) * width;
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const int column = x + kAnchor - j;
      const float value = (column >= 0 && column < width) ? image_row[column] : 0.0f;
#pragma unroll
      for (int q = 0; q < kRowsPerThread; ++q) {
        const int i = q + K - 1 - r;  // the tap row linking this input row to output row y0 + q
        if (i >= 0 && i < K) sum[q] += c_filter[i * K + j] * value;
      }
    }
  }
#pragma unroll
  for (int q = 0; q < kRowsPerThread; ++q)
    if (y0 + q < height) out[static_cast<std::size_t>(y0 + q) * width + x] = sum[q];
}

void convolve_direct(const float* image, int height, int width, const float* filter, int filter_height,
                     int filter_width, float* out, cudaStream_t stream) {
  require_sizes(height, width, filter_height, filter_width);
  copy_filter_to_constant(filter, filter_height, filter_width, stream);
  const dim3 block = block_shape();
  const dim3 small_grid((width + block.x - 1) / block.x, (height + block.y * kRowsPerThread - 1) / (block.y * kRowsPerThread));
  if (filter_height == 3 && filter_width == 3)
    convolve_small_kernel<3><<<small_grid, block, 0, stream>>>(image, height, width, out);
  else if (filter_height == 5 && filter_width == 5)
    convolve_small_kernel<5><<<small_grid, block, 0, stream>>>(image, height, width, out);
  else
    convolve_direct_kernel<<<grid_for(height, width), block, 0, stream>>>(image, height, width, filter_height,
                                                                          filter_width, out);
  CUDA_CHECK_LAUNCH();
}

// ---- Step 2: FFT convolution -----------------------------------------------------------------

int fft_friendly_size(int n) {
  if (n < 1 || n > (1 << 30)) throw std::invalid_argument("fft_friendly_size: n must be 1 to 2^30, got " + std::to_string(n));
  for (int m = n;; ++m) {
    int rest = m;
    for (int p : {2, 3, 5, 7})
      while (rest % p == 0) rest /= p;
    if (rest == 1) return m;
  }
}

// One thread per element of the padded array: the image's pixel in the top-left corner, zero
// everywhere else. Writing the zeros on every call keeps the padding right whatever the
// transforms did to the buffer before.
__global__ void pad_kernel(const float* __restrict__ image, int height, int width, float* __restrict__ padded,
                           int padded_height, int padded_width) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= padded_width || y >= padded_height) return;
  padded[static_cast<std::size_t>(y) * padded_width + x] =
      (y < height && x < width) ? image[static_cast<std::size_t>(y) * width + x] : 0.0f;
}

// The convolution theorem: the spectrum of a (circular) convolution is the product of the
// spectra. cuFFT's inverse leaves out the 1/N of the inverse DFT, so it is applied here.
__global__ void multiply_kernel(cufftComplex* __restrict__ spectrum, const cufftComplex* __restrict__ filter_spectrum,
                                std::size_t n, float scale) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const cufftComplex a = spectrum[i], b = filter_spectrum[i];
  spectrum[i] = make_cuComplex((a.x * b.x - a.y * b.y) * scale, (a.x * b.y + a.y * b.x) * scale);
}

// The 'same' window: output pixel (y, x) is element (y + ay, x + ax) of the full convolution.
__global__ void crop_kernel(const float* __restrict__ padded, int padded_width, int ay, int ax,
                            float* __restrict__ out, int height, int width) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  out[static_cast<std::size_t>(y) * width + x] = padded[static_cast<std::size_t>(y + ay) * padded_width + x + ax];
}

namespace {

// The one-time work for a given padded size: the buffers, the plans and the filter's spectrum.
FftConvolution plan_fft_convolution(int height, int width, const float* filter, int filter_height, int filter_width,
                                    int padded_height, int padded_width) {
  FftConvolution fft;
  fft.height = height;
  fft.width = width;
  fft.filter_height = filter_height;
  fft.filter_width = filter_width;
  fft.padded_height = padded_height;
  fft.padded_width = padded_width;
  const std::size_t spectrum_size = static_cast<std::size_t>(fft.padded_height) * fft.spectrum_width();
  fft.padded = stepwise::DeviceBuffer<float>(static_cast<std::size_t>(fft.padded_height) * fft.padded_width);
  fft.spectrum = stepwise::DeviceBuffer<cufftComplex>(spectrum_size);
  fft.filter_spectrum = stepwise::DeviceBuffer<cufftComplex>(spectrum_size);
  fft.forward = FftPlan(fft.padded_height, fft.padded_width, CUFFT_R2C);
  fft.inverse = FftPlan(fft.padded_height, fft.padded_width, CUFFT_C2R);

  // The filter, zero-padded to the same size with its taps in the top-left corner, transformed
  // once: every image convolved with `fft` reuses its spectrum.
  CUDA_CHECK(cudaMemset(fft.padded.data(), 0, fft.padded.bytes()));
  CUDA_CHECK(cudaMemcpy2D(fft.padded.data(), fft.padded_width * sizeof(float), filter, filter_width * sizeof(float),
                          filter_width * sizeof(float), filter_height, cudaMemcpyHostToDevice));
  CUFFT_CHECK(cufftExecR2C(fft.forward.get(), fft.padded.data(), fft.filter_spectrum.data()));
  CUDA_CHECK(cudaDeviceSynchronize());
  return fft;
}

// The circular convolution of the padded image with the padded filter, times `scale` * N, into
// fft.padded: pad, transform, multiply by the filter's spectrum and `scale`, transform back.
void convolve_padded(FftConvolution& fft, const float* image, float scale, cudaStream_t stream) {
  const std::size_t spectrum_size = static_cast<std::size_t>(fft.padded_height) * fft.spectrum_width();
  fft.forward.set_stream(stream);
  fft.inverse.set_stream(stream);
  pad_kernel<<<grid_for(fft.padded_height, fft.padded_width), block_shape(), 0, stream>>>(
      image, fft.height, fft.width, fft.padded.data(), fft.padded_height, fft.padded_width);
  CUDA_CHECK_LAUNCH();
  CUFFT_CHECK(cufftExecR2C(fft.forward.get(), fft.padded.data(), fft.spectrum.data()));
  const unsigned blocks = static_cast<unsigned>((spectrum_size + 255) / 256);
  multiply_kernel<<<blocks, 256, 0, stream>>>(fft.spectrum.data(), fft.filter_spectrum.data(), spectrum_size, scale);
  CUDA_CHECK_LAUNCH();
  CUFFT_CHECK(cufftExecC2R(fft.inverse.get(), fft.spectrum.data(), fft.padded.data()));
}

// 1/N for N = padded_height * padded_width: the factor cuFFT's inverse transform leaves out.
float inverse_scale(const FftConvolution& fft) {
  return 1.0f / (static_cast<float>(fft.padded_height) * static_cast<float>(fft.padded_width));
}

// Copies the height x width window of fft.padded that starts at row ay, column ax into `out`.
void crop_window(const FftConvolution& fft, int ay, int ax, float* out, cudaStream_t stream) {
  crop_kernel<<<grid_for(fft.height, fft.width), block_shape(), 0, stream>>>(fft.padded.data(), fft.padded_width, ay,
                                                                             ax, out, fft.height, fft.width);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

FftConvolution make_fft_convolution(int height, int width, const float* filter, int filter_height, int filter_width) {
  require_sizes(height, width, filter_height, filter_width);
  // Large enough that the circular convolution of the padded arrays holds the whole linear one,
  // and at least 2 each way, so that no plan is asked for a 1-element transform.
  return plan_fft_convolution(height, width, filter, filter_height, filter_width,
                              fft_friendly_size(std::max(2, height + filter_height - 1)),
                              fft_friendly_size(std::max(2, width + filter_width - 1)));
}

void convolve_fft(FftConvolution& fft, const float* image, float* out, cudaStream_t stream) {
  convolve_padded(fft, image, inverse_scale(fft), stream);
  crop_window(fft, (fft.filter_height - 1) / 2, (fft.filter_width - 1) / 2, out, stream);  // the 'same' window
}

// ---- Step 3: the crossover -------------------------------------------------------------------

namespace {

// The median GPU time of `work` over `runs` runs, after one untimed run (module load, clocks).
template <typename Work>
float median_ms(Work&& work, int runs) {
  work();
  std::vector<float> times;
  for (int r = 0; r < runs; ++r) times.push_back(stepwise::time_gpu_ms(work));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

std::vector<CrossoverPoint> measure_crossover(int height, int width, const std::vector<int>& filter_sides) {
  require_side(height, kMaxImageSide, "the image height");
  require_side(width, kMaxImageSide, "the image width");
  for (int side : filter_sides) require_side(side, kMaxFilterSide, "a filter side");
  std::mt19937 random(11);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> pixels(static_cast<std::size_t>(height) * width);
  for (float& p : pixels) p = uniform(random);
  const auto image = stepwise::DeviceBuffer<float>::from_host(pixels);
  stepwise::DeviceBuffer<float> out(pixels.size());

  std::vector<CrossoverPoint> points;
  for (int side : filter_sides) {
    std::vector<float> filter(static_cast<std::size_t>(side) * side);
    for (float& tap : filter) tap = uniform(random);
    FftConvolution fft = make_fft_convolution(height, width, filter.data(), side, side);  // before the timing
    CrossoverPoint point{side};
    point.direct_ms = median_ms([&] { convolve_direct(image.data(), height, width, filter.data(), side, side, out.data(), nullptr); }, 5);
    point.fft_ms = median_ms([&] { convolve_fft(fft, image.data(), out.data(), nullptr); }, 5);
    points.push_back(point);
  }
  return points;
}

int fft_wins_from(const std::vector<CrossoverPoint>& points) {
  int from = 0;
  for (auto p = points.rbegin(); p != points.rend() && p->fft_ms < p->direct_ms; ++p) from = p->filter_side;
  return from;
}
