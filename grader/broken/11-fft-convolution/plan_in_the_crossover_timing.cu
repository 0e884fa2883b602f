// broken: measure_crossover makes each FftConvolution (plans, buffers, the filter's spectrum) inside the timed FFT runs, so its fft_ms counts the one-time work as well
// fails: Crossover.MeasuresEverySide
// expect: your fft_ms at [0-9]+ x [0-9]+ .the FftConvolution is made before the marks. says
// (The rest is the reference solution.)
#include "convolution.h"
#define measure_crossover reference_measure_crossover
#include "solutions/11-fft-convolution/convolution.cu"
#undef measure_crossover

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
    CrossoverPoint point{side};
    point.direct_ms = median_ms([&] { convolve_direct(image.data(), height, width, filter.data(), side, side, out.data(), nullptr); }, 5);
    point.fft_ms = median_ms([&] {
      FftConvolution fft = make_fft_convolution(height, width, filter.data(), side, side);  // inside the marks
      convolve_fft(fft, image.data(), out.data(), nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());  // before `fft`'s buffers are freed
    }, 5);
    points.push_back(point);
  }
  return points;
}
