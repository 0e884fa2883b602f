// Lesson 11, the tuned version (README: "The tuned version"). A drop-in for the reference
// solution ../convolution.cu, graded as track "tuned" (bin/lessonNN-tests-tuned with this file in
// place of convolution.cu: `build/bin/stepwise grade 11 --track tuned`). Beyond the plain solution:
// - Direct, 3 x 3 and 5 x 5 filters: convolve_small_kernel<K> computes a tile of 4 columns x 4
//   rows per thread from float4 loads (two per 4 pixels for 5 x 5, all issued before any
//   arithmetic), and takes the columns beside its 4 from the neighbouring lanes of its warp with
//   __shfl_up_sync / __shfl_down_sync. The plain solution's kernel computes 8 rows of one column
//   per thread from scalar loads.
// - FFT, 3 x 3 and 5 x 5 filters: the multiply computes the filter's spectrum where it multiplies
//   (multiply_small_filter_kernel) instead of reading filter_spectrum, a third of that pass's
//   bytes. The taps it needs are kept in this file, beside FftConvolution (see small_filter_taps).
// - Pad and crop move 4 values per thread, all loaded before any is stored, and pad, multiply and
//   crop take their rows from the bottom up, reading first what the step before wrote last (still
//   in L2).
// Its figures on an H100, beside the plain solution's, are in the README ("On an H100"), from the
// course's one run of them.
#include "convolution.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "image_grid.h"
#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/event_timer.h"

// ---- Step 1: direct convolution --------------------------------------------------------------

// The filter lives in constant memory: every thread of a warp reads the same tap at the same
// time, which constant memory serves to the whole warp in one go.
__constant__ float c_filter[kMaxFilterSide * kMaxFilterSide];

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

// For the small square filters worth a kernel of their own (3 x 3, 5 x 5), for speed: at one
// thread per pixel the kernel is bound by its K * K loads per pixel, not by memory. Here the size
// is known at compile time, so every loop unrolls, and each thread computes a tile of 4 columns x
// kRowsPerThread rows:
// - Each input row the tile needs is loaded once, as one float4 (the thread's 4 columns), and
//   serves every output row it reaches: (kRowsPerThread + K - 1) / kRowsPerThread float4 loads
//   per 4 pixels (2 for 5 x 5), instead of K * K loads per pixel.
// - All of them are loaded before any arithmetic, so they are in flight at once.
// - The K - 1 columns beside the thread's 4 come from the neighbouring lanes' float4s through
//   warp shuffles (a warp is one row of 32 threads); only lanes 0 and 31 load theirs.
// Rows start 16-byte aligned only when the width is a multiple of 4: convolve_direct checks.
constexpr int kRowsPerThread = 4;

template <int K>
__global__ void convolve_small_kernel(const float* __restrict__ image, int height, int width,
                                      float* __restrict__ out) {
  constexpr int kAnchor = (K - 1) / 2;
  constexpr int kLeft = K - 1 - kAnchor;             // columns needed left of the thread's 4 ...
  constexpr int kRight = kAnchor;                    // ... and right of them
  constexpr int kInputRows = kRowsPerThread + K - 1;
  const int quad = blockIdx.x * blockDim.x + threadIdx.x;  // this thread's columns: 4 quad ... 4 quad + 3
  const int x = 4 * quad;
  const int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * kRowsPerThread;
  if (y0 >= height) return;  // the same for the whole warp: every lane below takes part in the shuffles
  const bool inside = x < width;
  const int lane = threadIdx.x;  // blockDim.x is 32

  // Load: input row r is image row y0 + kAnchor - (K - 1) + r; outside the image it is zeros.
  float4 rows[kInputRows];
  float edge[kInputRows][K - 1];  // lane 0: the kLeft columns left of its 4; lane 31: the kRight right of them
#pragma unroll
  for (int r = 0; r < kInputRows; ++r) {
    const int row = y0 + kAnchor - (K - 1) + r;
    const bool row_inside = row >= 0 && row < height;
    const float* image_row = image + static_cast<std::ptrdiff_t>(row) * width;
    rows[r] = row_inside && inside ? reinterpret_cast<const float4*>(image_row)[quad] : make_float4(0, 0, 0, 0);
#pragma unroll
    for (int k = 0; k < K - 1; ++k) {
      const bool left = k < kLeft;
      const int column = left ? x - kLeft + k : x + 4 + (k - kLeft);
      const bool mine = left ? lane == 0 : lane == 31;
      edge[r][k] = mine && row_inside && column >= 0 && column < width ? image_row[column] : 0.0f;
    }
  }

  // Compute: window[k] holds column x - kLeft + k of input row r. Output (y0 + q, x + c) takes
  // tap (i, j) times column x + c + kAnchor - j, where i = q + K - 1 - r links the two rows.
  float sum[kRowsPerThread][4] = {};
#pragma unroll
  for (int r = 0; r < kInputRows; ++r) {
    const float own[4] = {rows[r].x, rows[r].y, rows[r].z, rows[r].w};
    float window[4 + K - 1];
#pragma unroll
    for (int c = 0; c < 4; ++c) window[kLeft + c] = own[c];
#pragma unroll
    for (int k = 0; k < kLeft; ++k) {
      const float from_left = __shfl_up_sync(0xffffffffu, own[4 - kLeft + k], 1);
      window[k] = lane > 0 ? from_left : edge[r][k];
    }
#pragma unroll
    for (int k = 0; k < kRight; ++k) {
      const float from_right = __shfl_down_sync(0xffffffffu, own[k], 1);
      window[kLeft + 4 + k] = lane < 31 ? from_right : edge[r][kLeft + k];
    }
#pragma unroll
    for (int j = 0; j < K; ++j)
#pragma unroll
      for (int c = 0; c < 4; ++c)
#pragma unroll
        for (int q = 0; q < kRowsPerThread; ++q) {
          const int i = q + K - 1 - r;
          if (i >= 0 && i < K) sum[q][c] += c_filter[i * K + j] * window[c + kAnchor - j + kLeft];
        }
  }
  if (!inside) return;
#pragma unroll
  for (int q = 0; q < kRowsPerThread; ++q)
    if (y0 + q < height)
      reinterpret_cast<float4*>(out + static_cast<std::size_t>(y0 + q) * width)[quad] =
          make_float4(sum[q][0], sum[q][1], sum[q][2], sum[q][3]);
}

// Whether the float4 tiles of convolve_small_kernel fit: rows 16-byte aligned.
bool rows_fit_float4(const float* image, const float* out, int width) {
  auto aligned = [](const float* p) { return reinterpret_cast<std::uintptr_t>(p) % sizeof(float4) == 0; };
  return width % 4 == 0 && aligned(image) && aligned(out);
}

void convolve_direct(const float* image, int height, int width, const float* filter, int filter_height,
                     int filter_width, float* out, cudaStream_t stream) {
  require_sizes(height, width, filter_height, filter_width);
  const std::size_t taps = static_cast<std::size_t>(filter_height) * filter_width;
  CUDA_CHECK(cudaMemcpyToSymbolAsync(c_filter, filter, taps * sizeof(float), 0, cudaMemcpyHostToDevice, stream));
    const dim3 block = block_shape();  // 32 x 8: a warp is one row of threads, as the shuffles need
  const dim3 small_grid((width / 4 + block.x - 1) / block.x, (height + block.y * kRowsPerThread - 1) / (block.y * kRowsPerThread));
  const bool small_fits = rows_fit_float4(image, out, width);
  if (small_fits && filter_height == 3 && filter_width == 3)
    convolve_small_kernel<3><<<small_grid, block, 0, stream>>>(image, height, width, out);
  else if (small_fits && filter_height == 5 && filter_width == 5)
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

// The padding and the crop only move data, so their speed is how many loads are in flight: each
// thread moves kMovesPerThread values of one column, rows blockDim.y apart, all loaded before any
// is stored (one value per thread leaves the memory system waiting).
constexpr int kMovesPerThread = 4;

// Blocks start roughly in the order of their index. Taking the rows from the bottom up, a pass
// first reads what the step before it wrote last, while that is still in the L2 cache (tens of
// MB): pad, multiply and crop each gain a few microseconds at 4096 x 4096.
__device__ int block_row_from_the_bottom() { return gridDim.y - 1 - blockIdx.y; }

inline dim3 grid_for_moves(int height, int width) {
  const dim3 block = block_shape();
  return dim3((width + block.x - 1) / block.x, (height + block.y * kMovesPerThread - 1) / (block.y * kMovesPerThread));
}

// The padded array: the image's pixel in the top-left corner, zero everywhere else. Writing the
// zeros on every call keeps the padding right whatever the transforms did to the buffer before.
__global__ void pad_kernel(const float* __restrict__ image, int height, int width, float* __restrict__ padded,
                           int padded_height, int padded_width) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int first_row = block_row_from_the_bottom() * blockDim.y * kMovesPerThread + threadIdx.y;
  if (x >= padded_width) return;
  float value[kMovesPerThread];
#pragma unroll
  for (int k = 0; k < kMovesPerThread; ++k) {
    const int y = first_row + k * blockDim.y;
    value[k] = (y < height && x < width) ? image[static_cast<std::size_t>(y) * width + x] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < kMovesPerThread; ++k) {
    const int y = first_row + k * blockDim.y;
    if (y < padded_height) padded[static_cast<std::size_t>(y) * padded_width + x] = value[k];
  }
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

// Stretch, for speed: with a 3 x 3 or 5 x 5 filter the multiply need not read filter_spectrum,
// a third of its bytes. At row u, column v of a padded_height x padded_width (Py x Px) spectrum,
// with w_y = e^(-2 pi i / Py) and w_x = e^(-2 pi i / Px), the filter's spectrum is
//   F(u, v) = sum over i, j of f[i][j] w_y^(u i) w_x^(v j) = sum over i of a^i g_i(v),
// where a = w_y^u and g_i(v) = sum over j of f[i][j] b^j with b = w_x^v: a few dozen
// multiply-adds, which the GPU does in the time the memory would take to deliver F. Each thread
// takes one column v and kSpectrumRowsPerThread rows: it loads them all first (many loads in
// flight), works out its g_i(v) once (times the scale) while they arrive, then per row one
// sincospi for a and Horner's rule for the sum.
template <int K>
struct SmallFilter {
  float taps[K * K];
};

constexpr int kSpectrumRowsPerThread = 16;

template <int K>
__global__ void multiply_small_filter_kernel(cufftComplex* __restrict__ spectrum, int padded_height, int padded_width,
                                             SmallFilter<K> filter, float scale) {
  const int spectrum_width = padded_width / 2 + 1;
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  const int first_row = block_row_from_the_bottom() * blockDim.y * kSpectrumRowsPerThread + threadIdx.y;
  if (v >= spectrum_width) return;
  cufftComplex value[kSpectrumRowsPerThread];
#pragma unroll
  for (int k = 0; k < kSpectrumRowsPerThread; ++k) {
    const int u = first_row + k * blockDim.y;
    if (u < padded_height) value[k] = spectrum[static_cast<std::size_t>(u) * spectrum_width + v];
  }
  float2 b;  // w_x^v
  sincospif(-2.0f * static_cast<float>(v) / padded_width, &b.y, &b.x);
  float2 g[K] = {};
  float2 b_to_j = make_float2(scale, 0.0f);  // scale * b^j
#pragma unroll
  for (int j = 0; j < K; ++j) {
#pragma unroll
    for (int i = 0; i < K; ++i) {
      g[i].x += filter.taps[i * K + j] * b_to_j.x;
      g[i].y += filter.taps[i * K + j] * b_to_j.y;
    }
    b_to_j = make_float2(b_to_j.x * b.x - b_to_j.y * b.y, b_to_j.x * b.y + b_to_j.y * b.x);
  }
#pragma unroll
  for (int k = 0; k < kSpectrumRowsPerThread; ++k) {
    const int u = first_row + k * blockDim.y;
    if (u >= padded_height) continue;
    float2 a;  // w_y^u
    sincospif(-2.0f * static_cast<float>(u) / padded_height, &a.y, &a.x);
    float2 f = g[K - 1];  // Horner: g_0 + a (g_1 + a (g_2 + ...))
#pragma unroll
    for (int i = K - 2; i >= 0; --i) f = make_float2(f.x * a.x - f.y * a.y + g[i].x, f.x * a.y + f.y * a.x + g[i].y);
    const cufftComplex x = value[k];
    spectrum[static_cast<std::size_t>(u) * spectrum_width + v] = make_cuComplex(x.x * f.x - x.y * f.y, x.x * f.y + x.y * f.x);
  }
}

namespace {

// FftConvolution (convolution.h, the API the lesson asks for) holds the filter's spectrum, not its
// taps, and the multiply above needs the taps. This file keeps them beside it, keyed by the device
// address of the FftConvolution's filter_spectrum: that buffer belongs to one live FftConvolution
// and keeps its address when the FftConvolution is moved. plan_fft_convolution records the taps of
// every 3 x 3 and 5 x 5 filter (replacing whatever an FftConvolution destroyed before left at the
// same address) and forgets them for any other filter.
struct SmallFilterTaps {
  std::mutex mutex;
  std::map<const cufftComplex*, std::vector<float>> by_spectrum;
};
SmallFilterTaps& small_filter_taps() {
  static SmallFilterTaps taps;  // made on first use, not before main
  return taps;
}

bool is_small_filter(int filter_height, int filter_width) {
  return filter_height == filter_width && (filter_height == 3 || filter_height == 5);
}

void remember_small_filter(const FftConvolution& fft, const float* filter) {
  SmallFilterTaps& known = small_filter_taps();
  const std::lock_guard<std::mutex> lock(known.mutex);
  if (is_small_filter(fft.filter_height, fft.filter_width))
    known.by_spectrum[fft.filter_spectrum.data()].assign(filter, filter + fft.filter_height * fft.filter_width);
  else
    known.by_spectrum.erase(fft.filter_spectrum.data());
}

// The multiply with the filter's spectrum computed in place, if the taps of `fft` are known;
// false (nothing launched) if not.
template <int K>
bool multiply_small_filter(FftConvolution& fft, float scale, cudaStream_t stream) {
  SmallFilter<K> filter;
  {
    SmallFilterTaps& known = small_filter_taps();
    const std::lock_guard<std::mutex> lock(known.mutex);
    const auto taps = known.by_spectrum.find(fft.filter_spectrum.data());
    if (taps == known.by_spectrum.end() || taps->second.size() != K * K) return false;
    std::copy(taps->second.begin(), taps->second.end(), filter.taps);
  }
  const dim3 block = block_shape();
  const dim3 grid((fft.spectrum_width() + block.x - 1) / block.x,
                  (fft.padded_height + block.y * kSpectrumRowsPerThread - 1) / (block.y * kSpectrumRowsPerThread));
  multiply_small_filter_kernel<K><<<grid, block, 0, stream>>>(fft.spectrum.data(), fft.padded_height, fft.padded_width,
                                                             filter, scale);
  return true;
}

}  // namespace

// The 'same' window: output pixel (y, x) is element (y + ay, x + ax) of the full convolution.
__global__ void crop_kernel(const float* __restrict__ padded, int padded_width, int ay, int ax,
                            float* __restrict__ out, int height, int width) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int first_row = block_row_from_the_bottom() * blockDim.y * kMovesPerThread + threadIdx.y;
  if (x >= width) return;
  float value[kMovesPerThread];
#pragma unroll
  for (int k = 0; k < kMovesPerThread; ++k) {
    const int y = first_row + k * blockDim.y;
    value[k] = y < height ? padded[static_cast<std::size_t>(y + ay) * padded_width + x + ax] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < kMovesPerThread; ++k) {
    const int y = first_row + k * blockDim.y;
    if (y < height) out[static_cast<std::size_t>(y) * width + x] = value[k];
  }
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
  remember_small_filter(fft, filter);
  return fft;
}

// The circular convolution of the padded image with the padded filter, times `scale` * N, into
// fft.padded: pad, transform, multiply by the filter's spectrum and `scale`, transform back.
void convolve_padded(FftConvolution& fft, const float* image, float scale, cudaStream_t stream) {
  const std::size_t spectrum_size = static_cast<std::size_t>(fft.padded_height) * fft.spectrum_width();
  fft.forward.set_stream(stream);
  fft.inverse.set_stream(stream);
  pad_kernel<<<grid_for_moves(fft.padded_height, fft.padded_width), block_shape(), 0, stream>>>(
      image, fft.height, fft.width, fft.padded.data(), fft.padded_height, fft.padded_width);
  CUDA_CHECK_LAUNCH();
  CUFFT_CHECK(cufftExecR2C(fft.forward.get(), fft.padded.data(), fft.spectrum.data()));
  bool multiplied = false;
  if (is_small_filter(fft.filter_height, fft.filter_width))
    multiplied = fft.filter_height == 3 ? multiply_small_filter<3>(fft, scale, stream)
                                        : multiply_small_filter<5>(fft, scale, stream);
  if (!multiplied) {
    const unsigned blocks = static_cast<unsigned>((spectrum_size + 255) / 256);
    multiply_kernel<<<blocks, 256, 0, stream>>>(fft.spectrum.data(), fft.filter_spectrum.data(), spectrum_size, scale);
  }
  CUDA_CHECK_LAUNCH();
  CUFFT_CHECK(cufftExecC2R(fft.inverse.get(), fft.spectrum.data(), fft.padded.data()));
}

// 1/N for N = padded_height * padded_width: the factor cuFFT's inverse transform leaves out.
float inverse_scale(const FftConvolution& fft) {
  return 1.0f / (static_cast<float>(fft.padded_height) * static_cast<float>(fft.padded_width));
}

// Copies the height x width window of fft.padded that starts at row ay, column ax into `out`.
void crop_window(const FftConvolution& fft, int ay, int ax, float* out, cudaStream_t stream) {
  crop_kernel<<<grid_for_moves(fft.height, fft.width), block_shape(), 0, stream>>>(fft.padded.data(), fft.padded_width, ay,
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
