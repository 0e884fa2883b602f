// Lesson 13: how a tile's status word is stored and loaded by the single-pass scan of scan.cu
// (given; README, "Publishing between blocks").
#pragma once

#include <cuda_runtime.h>

// Relaxed atomics at device scope: the value travels in the same 64-bit word as its status, so a
// reader that sees the status sees its value, and nothing else a tile wrote is read through them.
// (Release stores and acquire loads also work, but each acquire in the spin loop costs: on an
// H100 they were slower than relaxed at the same tile size when this was written; not kept.)
//
// CUDA 13 has them built into the compiler (__nv_atomic_store_n, __nv_atomic_load_n: the same
// st.relaxed.gpu and ld.relaxed.gpu instructions as cuda::atomic_ref). cuda::atomic_ref's header,
// <cuda/atomic>, costs about two seconds of compiling on every save of scan.cu; CUDA 12 uses it.
#if __CUDACC_VER_MAJOR__ >= 13
__device__ inline void publish(unsigned long long* status, unsigned long long word) {
  __nv_atomic_store_n(status, word, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}
__device__ inline unsigned long long peek(unsigned long long* status) {
  return __nv_atomic_load_n(status, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}
#else
#include <cuda/atomic>

__device__ inline void publish(unsigned long long* status, unsigned long long word) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*status).store(word, cuda::memory_order_relaxed);
}
__device__ inline unsigned long long peek(unsigned long long* status) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*status).load(cuda::memory_order_relaxed);
}
#endif
