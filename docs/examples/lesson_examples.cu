// Examples the lesson READMEs show that are neither the solution's code nor the demo's: calls of
// a lesson's API or of CUDA's own as a reader would write them, and code a lesson's program
// writes at run time. Compiled, never run (see CMakeLists.txt).
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#include <cstddef>

#include "curand_check.h"
#include "elementwise_exp.h"
#include "fft_plan.h"
#include "gpu_mesh.h"
#include "mandelbrot.h"
#include "stepwise/check.h"
#include "streams.h"
#include "vectorize.cuh"

// Lesson 01: one functor, two targets.
// [docs:vectorize-add]
struct Add {
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};
// [docs:end]

// [docs:vectorize-calls]
void add_on_both_targets(const float* a, const float* b, float* out,            // host arrays
                         const float* d_a, const float* d_b, float* d_out, int n) {  // device arrays
  vectorize(Target::cpu, Add{}, a, b, out, n);          // host pointers: a plain loop
  vectorize(Target::gpu, Add{}, d_a, d_b, d_out, n);    // device pointers: a grid-stride kernel
}
// [docs:end]

// Lesson 00: one attribute of the GPU in use, asked for on its own (lesson 01's reference
// solution sizes its grid from it).
// [docs:sm-count]
int multiprocessor_count() {
  int device = 0, multiprocessors = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  return multiprocessors;
}
// [docs:end]

// Lesson 02: the CUDA event calls behind stepwise::GpuEvent and EventTimer, written out.
// [docs:raw-events]
float time_exp_array(const float* d_x, float* d_out, int n) {
  cudaEvent_t before, after;
  CUDA_CHECK(cudaEventCreate(&before));
  CUDA_CHECK(cudaEventCreate(&after));
  CUDA_CHECK(cudaEventRecord(before));      // a mark in the default stream's queue
  exp_array(d_x, d_out, n);                 // queued after it
  CUDA_CHECK(cudaEventRecord(after));
  CUDA_CHECK(cudaEventSynchronize(after));  // wait until the GPU has passed the second mark
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, before, after));
  CUDA_CHECK(cudaEventDestroy(before));
  CUDA_CHECK(cudaEventDestroy(after));
  return ms;
}
// [docs:end]

// Lesson 03: the point c = real + i*imag that pixel (x, y) of a width x height image of `region`
// shows.
// [docs:pixel-point]
__host__ __device__ void pixel_point(Region region, int width, int height, int x, int y, float* real,
                                     float* imag) {
  const float pixel_width = (region.max_x - region.min_x) / width;
  const float pixel_height = (region.max_y - region.min_y) / height;
  *real = region.min_x + x * pixel_width;
  *imag = region.min_y + y * pixel_height;
}
// [docs:end]

// Lesson 03: 2-D grid-stride loops, on an image whose pixels each record their own index.
// [docs:grid-stride-2d]
__global__ void pixel_index_kernel(int* out, int width, int height) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += blockDim.y * gridDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < width; x += blockDim.x * gridDim.x)
      out[y * width + x] = y * width + x;
}
// [docs:end]

// Lesson 03: the same image with one thread per pixel, on a grid rounded up to whole blocks.
// [docs:pixel-index]
__global__ void pixel_index_per_thread_kernel(int* out, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;  // a thread of the last blocks outside the image
  out[y * width + x] = y * width + x;
}
// [docs:end]

// [docs:pixel-grid]
void write_pixel_index(int* out, int width, int height) {
  if (width == 0 || height == 0) return;
  const dim3 block(32, 8);
  const dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  pixel_index_per_thread_kernel<<<grid, block>>>(out, width, height);
  CUDA_CHECK_LAUNCH();
}
// [docs:end]

// Lesson 04: one thread per point of a mesh, on a 2-D grid; this one records each point's index
// (step 4's kernel computes the point and its distance instead).
// [docs:mesh-index]
__global__ void mesh_index_kernel(Mesh mesh, int* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= mesh.nx || y >= mesh.ny) return;
  out[y * mesh.nx + x] = y * mesh.nx + x;
}
// [docs:end]

// Lesson 05: one stream, with the runtime's calls written out (StreamGuard wraps the first and
// last of them).
__global__ void negate_kernel(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = -in[i];
}

// [docs:raw-stream]
void negate_on_one_stream(const float* in, float* out, float* d_in, float* d_out, int n) {
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  const int threads = 256, blocks = (n + threads - 1) / threads;
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));  // does not wait for the default stream
  CUDA_CHECK(cudaMemcpyAsync(d_in, in, bytes, cudaMemcpyHostToDevice, stream));
  negate_kernel<<<blocks, threads, 0, stream>>>(d_in, d_out, n);        // the 4th launch value: the stream
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpyAsync(out, d_out, bytes, cudaMemcpyDeviceToHost, stream));
  // out may not hold the results yet
  CUDA_CHECK(cudaStreamSynchronize(stream));
  // now it does
  CUDA_CHECK(cudaStreamDestroy(stream));
}
// [docs:end]

// Lesson 05: the same work in the scope of a StreamGuard (step 3).
// [docs:stream-guard-scope]
void transform_in_a_guarded_scope(const float* in, float* out, float* d_in, float* d_out, int n, int work) {
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  {
    StreamGuard stream;
    CUDA_CHECK(cudaMemcpyAsync(d_in, in, bytes, cudaMemcpyHostToDevice, stream.get()));
    transform_async(d_in, d_out, n, work, stream.get());
    CUDA_CHECK(cudaMemcpyAsync(out, d_out, bytes, cudaMemcpyDeviceToHost, stream.get()));
  }  // the work is done here, also when an exception left the scope early
}
// [docs:end]

// Lesson 07: the steps of a tree sum over a block's values in shared memory, one value per
// thread, blockDim.x a power of two. Value 0 ends with the block's sum.
// [docs:tree-steps]
__device__ void tree_sum_in_place(float* values) {
  const int t = threadIdx.x;
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) values[t] += values[t + half];
    __syncthreads();  // every addition of this step is done before the next step reads
  }
}
// [docs:end]

// Lesson 11: cuFFT plans, made once for a size and executed for every image of that size.
// [docs:plans]
void spectra_of_images(float* const* d_images, cufftComplex* const* d_spectra, int count, int padded_height,
                       int padded_width) {
  const FftPlan forward(padded_height, padded_width, CUFFT_R2C);  // slow: once, before the loop
  for (int i = 0; i < count; ++i)
    CUFFT_CHECK(cufftExecR2C(forward.get(), d_images[i], d_spectra[i]));  // fast: per image
}  // the plan is destroyed here
// [docs:end]

// Lesson 09: a generator of cuRAND's host API, from creation to destruction.
// [docs:host-api]
void fill_uniform_once(float* d_out, std::size_t n, unsigned long long seed) {
  curandGenerator_t generator;
  CURAND_CHECK(curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_XORWOW));  // or ..._PHILOX4_32_10
  CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(generator, seed));
  CURAND_CHECK(curandGenerateUniform(generator, d_out, n));  // n floats into device memory, asynchronously
  CURAND_CHECK(curandDestroyGenerator(generator));
}
// [docs:end]

// Lesson 09: cuRAND's device API, a generator in each thread's registers.
// [docs:device-api]
__global__ void four_uniforms_per_thread(unsigned long long seed, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned long long subsequence = i, offset = 0;
  curandStatePhilox4_32_10_t state;
  curand_init(seed, subsequence, offset, &state);
  const float4 v = curand_uniform4(&state);   // four uniforms in (0, 1]
  out[i] = v;
}
// [docs:end]

// Lesson 12: the kernel polynomial_source writes for 1 - x/2 + x^2/3 - x^3/4 (the first terms of
// the grader's polynomial), here compiled ahead of time.
// [docs:specialised-horner]
__global__ void polynomial_of_degree_3(const float* __restrict__ x, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];
  float acc = -0x1p-2f;
  acc = fmaf(acc, v, 0x1.555556p-2f);
  acc = fmaf(acc, v, -0x1p-1f);
  acc = fmaf(acc, v, 0x1p+0f);
  out[i] = acc;
}
// [docs:end]
