#pragma once
// Pinned host memory for the grader's largest arrays (gigabytes, e.g. lesson 05's pipeline at
// n = INT_MAX). cudaMallocHost gets the memory 4 KiB page by page: 8.6 GB took 4.7 s to pin and
// 0.9 s to free on the H100 machine, most of it the kernel's. Here the memory is asked for in
// transparent huge pages (2 MiB), written first on the idle cores, then pinned with
// cudaHostRegister: 0.45 s and 0.2 s. The lessons' own code keeps stepwise::PinnedBuffer.
#include <cstddef>

namespace grader {

// `count` values of T, pinned. Throws stepwise::CudaError with cudaErrorMemoryAllocation when the
// host cannot give or pin that much (a check SKIPs then), another stepwise::CudaError otherwise.
template <typename T>
class PinnedHostArray {
 public:
  explicit PinnedHostArray(std::size_t count);
  ~PinnedHostArray();
  PinnedHostArray(const PinnedHostArray&) = delete;
  PinnedHostArray& operator=(const PinnedHostArray&) = delete;

  T* data() { return data_; }
  std::size_t size() const { return count_; }
  T& operator[](std::size_t i) { return data_[i]; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// The untyped memory behind PinnedHostArray: `bytes` pinned (nullptr for 0), and its release.
void* pin_host_memory(std::size_t bytes);
void unpin_host_memory(void* memory, std::size_t bytes);

template <typename T>
PinnedHostArray<T>::PinnedHostArray(std::size_t count)
    : data_(static_cast<T*>(pin_host_memory(count * sizeof(T)))), count_(count) {}

template <typename T>
PinnedHostArray<T>::~PinnedHostArray() {
  unpin_host_memory(data_, count_ * sizeof(T));
}

}  // namespace grader
