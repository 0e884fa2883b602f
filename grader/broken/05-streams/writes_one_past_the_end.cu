// broken: the kernel's bounds check is i <= n, so the last thread writes one value past the end
// fails: TransformAsync.MatchesCpuAtEverySize
// expect: wrote past the end of the output
// (The rest is the reference solution.)
#include "streams.h"
#define transform_async reference_transform_async
#include "solutions/05-streams/streams.cu"
#undef transform_async

__global__ void transform_one_too_many(const float* in, float* out, int n, int work) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = transform(i < n ? in[i] : 0.5f, work);
}

void transform_async(const float* d_in, float* d_out, int n, int work, cudaStream_t stream) {
  if (n <= 0) return;
  transform_one_too_many<<<n / 256 + 1, 256, 0, stream>>>(d_in, d_out, n, work);
  CUDA_CHECK_LAUNCH();
}
