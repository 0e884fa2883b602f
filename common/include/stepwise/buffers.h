#pragma once
// Owning buffers: memory is freed when the buffer goes out of scope, also when an exception leaves
// the function early. Copies between host and device check their sizes.
//
//   stepwise::DeviceBuffer<float> d_a = stepwise::DeviceBuffer<float>::from_host(a);
//   stepwise::DeviceBuffer<float> d_out(n);
//   ...
//   std::vector<float> out = d_out.to_host();
#include <cstddef>
#include <utility>
#include <vector>

#include "stepwise/arguments.h"
#include "stepwise/check.h"

namespace stepwise {

// `count` values of T from Memory::allocate, returned with Memory::release; movable, not copyable.
template <typename T, typename Memory>
class OwnedMemory {
 public:
  OwnedMemory() = default;
  explicit OwnedMemory(std::size_t count) : count_(count) {
    if (count_ > 0) data_ = static_cast<T*>(Memory::allocate(bytes()));
  }
  ~OwnedMemory() { Memory::release(data_); }
  OwnedMemory(OwnedMemory&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  OwnedMemory& operator=(OwnedMemory&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  OwnedMemory(const OwnedMemory&) = delete;
  OwnedMemory& operator=(const OwnedMemory&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

struct DeviceMemory {  // cudaMalloc: memory on the GPU
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
  }
  static void release(void* p) { cudaFree(p); }
};

struct PinnedMemory {  // cudaMallocHost: page-locked host memory
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    CUDA_CHECK(cudaMallocHost(&p, bytes));
    return p;
  }
  static void release(void* p) { cudaFreeHost(p); }
};

// Device (GPU) memory for `count` values of T.
template <typename T>
class DeviceBuffer : public OwnedMemory<T, DeviceMemory> {
 public:
  using OwnedMemory<T, DeviceMemory>::OwnedMemory;
  static DeviceBuffer from_host(const std::vector<T>& values) {
    DeviceBuffer buffer(values.size());
    buffer.copy_from_host(values);
    return buffer;
  }

  void copy_from_host(const std::vector<T>& values) {
    if (values.size() != this->size()) throw_size_mismatch("copy_from_host", values.size(), this->size());
    if (this->size() > 0)
      CUDA_CHECK(cudaMemcpy(this->data(), values.data(), this->bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> to_host() const {
    std::vector<T> values(this->size());
    if (this->size() > 0)
      CUDA_CHECK(cudaMemcpy(values.data(), this->data(), this->bytes(), cudaMemcpyDeviceToHost));
    return values;
  }
};

// Page-locked ("pinned") host memory: copies to and from it run at full PCIe/NVLink speed and
// can be asynchronous (see lesson 05).
template <typename T>
class PinnedBuffer : public OwnedMemory<T, PinnedMemory> {
 public:
  using OwnedMemory<T, PinnedMemory>::OwnedMemory;
  T& operator[](std::size_t i) { return this->data()[i]; }
  const T& operator[](std::size_t i) const { return this->data()[i]; }
  T* begin() { return this->data(); }
  T* end() { return this->data() + this->size(); }
};

}  // namespace stepwise
