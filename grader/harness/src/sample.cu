#include "grader/sample.h"

#include <algorithm>

#include "grader/inputs.h"
#include "grader/splitmix.h"
#include "stepwise/check.h"

namespace grader {
namespace {

template <typename T>
__global__ void gather(const T* __restrict__ values, const std::size_t* __restrict__ indices, std::size_t count,
                       T* __restrict__ out) {
  const std::size_t k = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (k < count) out[k] = values[indices[k]];
}

}  // namespace

Sample::Sample(std::size_t n, std::size_t count, std::size_t ends) {
  if (n <= count + 2 * ends) {
    indices_.resize(n);
    for (std::size_t i = 0; i < n; ++i) indices_[i] = i;
  } else {
    const std::uint64_t draw = next_draw();
    indices_ = {0, n - 1};
    for (std::size_t k = 0; indices_.size() < count + 2 && k < 4 * count; ++k) indices_.push_back(draw_bits(draw, k) % n);
    for (std::size_t k = 0; k < ends; ++k) indices_.insert(indices_.end(), {k, n - 1 - k});
    std::sort(indices_.begin(), indices_.end());
    indices_.erase(std::unique(indices_.begin(), indices_.end()), indices_.end());
  }
  device_indices_ = stepwise::DeviceBuffer<std::size_t>::from_host(indices_);
}

template <typename T>
std::vector<T> Sample::of(const T* device_values) const {
  stepwise::DeviceBuffer<T> gathered(indices_.size());
  if (!indices_.empty()) {
    const unsigned blocks = static_cast<unsigned>((indices_.size() + 255) / 256);
    gather<<<blocks, 256>>>(device_values, device_indices_.data(), indices_.size(), gathered.data());
    CUDA_CHECK_LAUNCH();
  }
  return gathered.to_host();
}

template std::vector<float> Sample::of(const float*) const;
template std::vector<double> Sample::of(const double*) const;
template std::vector<int> Sample::of(const int*) const;

}  // namespace grader
