#pragma once
// Owning buffers: memory is freed when the buffer goes out of scope, also when an exception leaves
// the function early. Copies between host and device check their sizes.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "stepwise/check.h"

namespace stepwise {

// Device (GPU) memory for `count` values of T, from cudaMalloc.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
  }
  static DeviceBuffer from_host(const std::vector<T>& values) {
    DeviceBuffer buffer(values.size());
    buffer.copy_from_host(values);
    return buffer;
  }
  ~DeviceBuffer() { cudaFree(data_); }

  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void copy_from_host(const std::vector<T>& values) {
    require_size(values.size(), "copy_from_host");
    if (count_ > 0)
      CUDA_CHECK(cudaMemcpy(data_, values.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> to_host() const {
    std::vector<T> values(count_);
    if (count_ > 0)
      CUDA_CHECK(cudaMemcpy(values.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    return values;
  }

 private:
  void require_size(std::size_t n, const char* what) const {
    if (n != count_)
      throw std::invalid_argument(std::string(what) + ": the host vector has " +
                                  std::to_string(n) + " values, the device buffer " +
                                  std::to_string(count_));
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// Page-locked ("pinned") host memory, from cudaMallocHost: copies to and from it run at full
// PCIe/NVLink speed and can be asynchronous (see lesson 05).
template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), count_ * sizeof(T)));
  }
  ~PinnedBuffer() { cudaFreeHost(data_); }

  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + count_; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace stepwise
