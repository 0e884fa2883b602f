// Lesson 00: hello, GPU. Read README.md first: each TODO(step N) below is "Step N" there.
#include "hello_gpu.h"

#include "stepwise/check.h"
#include "stepwise/todo.h"

DeviceSummary query_device(int device) {
  // TODO(step 1): return what the CUDA runtime knows about GPU number `device`, as a
  // DeviceSummary (README.md's table under "Asking the GPU about itself" names the
  // cudaDeviceProp field behind each member). A GPU that does not exist must throw
  // stepwise::CudaError: check the runtime call with CUDA_CHECK(...). Delete the line below when
  // you are done.
  STEPWISE_TODO(1);
}

__global__ void global_index_kernel(int* out, int n) {
  // TODO(step 2): each thread writes its own global index i (its number in the whole grid) to
  // out[i]. The last block can reach past n: those threads write nothing.
}

void write_global_index(int* out, int n, int threads_per_block) {
  // TODO(step 2): launch global_index_kernel on enough blocks of threads_per_block threads to
  // cover all n elements, and check the launch with CUDA_CHECK_LAUNCH(), so that a launch the
  // GPU rejects throws. n == 0 launches nothing. Delete the line below when done.
  STEPWISE_TODO(2);
}

__global__ void block_and_thread_kernel(int* block_of, int* thread_of, int n) {
  // TODO(step 3): the same global index and bounds check as in step 2; write blockIdx.x to
  // block_of[i] and threadIdx.x to thread_of[i].
}

void write_block_and_thread(int* block_of, int* thread_of, int n, int threads_per_block) {
  // TODO(step 3): the same launch as in step 2, with block_and_thread_kernel, checked with
  // CUDA_CHECK_LAUNCH(). Delete the line below when you are done.
  STEPWISE_TODO(3);
}
