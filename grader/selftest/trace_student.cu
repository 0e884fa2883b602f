#include "trace_student.h"

#include <cublas_v2.h>
#include <cub/device/device_reduce.cuh>

#include <vector>

#include "stepwise/check.h"

namespace pretend {
namespace {

__global__ void scale_kernel(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2;
}

__global__ void slow_scale_kernel(float* x, int n) {
  const long long start = clock64();
  while (clock64() - start < 20'000'000) {  // about 10 ms
  }
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2;
}

__global__ void staged_scale_kernel(float* x, int n) {
  __shared__ float tile[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0;
  __syncthreads();
  if (i < n) x[i] = 2 * tile[threadIdx.x];
}

int blocks(int n) { return (n + 255) / 256; }

cudaStream_t own_stream() {
  static cudaStream_t s = [] {
    cudaStream_t created = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking));
    return created;
  }();
  return s;
}

}  // namespace

void scale(float* x, int n, cudaStream_t stream) {
  scale_kernel<<<blocks(n), 256, 0, stream>>>(x, n);
  CUDA_CHECK(cudaGetLastError());
}

void scale_on_legacy_stream(float* x, int n, cudaStream_t) {
  scale_kernel<<<blocks(n), 256>>>(x, n);
  CUDA_CHECK(cudaGetLastError());
}

void scale_on_own_stream(float* x, int n, cudaStream_t) {
  scale_kernel<<<blocks(n), 256, 0, own_stream()>>>(x, n);
  CUDA_CHECK(cudaGetLastError());
}

void scale_and_wait(float* x, int n, cudaStream_t stream) {
  scale(x, n, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

void scale_left_running(float* x, int n) {
  slow_scale_kernel<<<blocks(n), 256, 0, own_stream()>>>(x, n);
  CUDA_CHECK(cudaGetLastError());
}

void scale_joined_back(float* x, int n, cudaStream_t stream) {
  static cudaEvent_t done = [] {
    cudaEvent_t e = nullptr;
    CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    return e;
  }();
  slow_scale_kernel<<<blocks(n), 256, 0, own_stream()>>>(x, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(done, own_stream()));
  CUDA_CHECK(cudaStreamWaitEvent(stream, done, 0));
}

void scale_on_host(float* x, int n) {
  std::vector<float> host(n);
  CUDA_CHECK(cudaMemcpy(host.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (float& v : host) v *= 2;
  CUDA_CHECK(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
}

void scale_staged_in_shared(float* x, int n) {
  staged_scale_kernel<<<blocks(n), 256>>>(x, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

void sum_with_cub(const float* x, float* sum, int n) {
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, x, sum, n));
  void* temporary = nullptr;
  CUDA_CHECK(cudaMalloc(&temporary, bytes));
  CUDA_CHECK(cub::DeviceReduce::Sum(temporary, bytes, x, sum, n));
  CUDA_CHECK(cudaFree(temporary));
}

void square_with_cublas(const float* a, float* c, int n) {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    cublasCreate(&h);
    return h;
  }();
  const float one = 1, zero = 0;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n, &zero, c, n);
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace pretend
