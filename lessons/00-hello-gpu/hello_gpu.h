#pragma once
// Lesson 00: meet the GPU. Ask it what it is, launch a first kernel, and see how every thread
// finds its own element.
//
// Pointers are device pointers (from cudaMalloc). The launching functions put their kernel on
// the default stream and return without waiting for the GPU; a launch the GPU rejects throws
// stepwise::CudaError. n may be 0 (then nothing is launched); threads_per_block must be at
// least 1 (CUDA, not your code, decides what is too many).
#include <cstddef>
#include <string>

// Step 1: the facts about a GPU that this course uses, as the CUDA runtime reports them.
struct DeviceSummary {
  std::string name;                     // e.g. "NVIDIA H100 80GB HBM3"
  int major = 0;                        // compute capability major.minor, e.g. 9.0
  int minor = 0;
  int multiprocessors = 0;              // streaming multiprocessors (SMs), e.g. 132
  std::size_t global_memory_bytes = 0;  // all of the GPU's memory, in bytes
  int max_threads_per_block = 0;        // 1024 on every GPU CUDA 13 supports
  int warp_size = 0;                    // threads that run in lockstep: 32
  int l2_cache_bytes = 0;               // e.g. 52428800 (50 MiB) on an H100
};

// Step 1: asks about GPU number `device` (0 is the first one). Throws stepwise::CudaError when
// there is no such GPU.
DeviceSummary query_device(int device);

// Step 2: a first kernel. Launches ceil(n / threads_per_block) blocks of threads_per_block
// threads; the thread with global index i = blockIdx.x * blockDim.x + threadIdx.x writes
// out[i] = i, and threads with i >= n write nothing.
void write_global_index(int* out, int n, int threads_per_block);

// Step 3: the same grid, but each thread records who it is: block_of[i] = blockIdx.x and
// thread_of[i] = threadIdx.x of the thread that handled element i.
void write_block_and_thread(int* block_of, int* thread_of, int n, int threads_per_block);
