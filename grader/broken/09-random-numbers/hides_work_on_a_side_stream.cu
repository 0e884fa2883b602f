// broken: for large fills, generate_uniform runs cuRAND on a private non-blocking stream and
// returns at once, so a timer on the default stream sees no work
// fails: RandomSpeed.PhiloxFillNearCurand
// expect: not ready when the call returned
// (The rest is the reference solution.)
#include "random_numbers.h"
#define generate_uniform reference_generate_uniform
#include "solutions/09-random-numbers/random_numbers.cu"
#undef generate_uniform

void generate_uniform(curandGenerator_t generator, float* out, std::size_t n) {
  static cudaStream_t side = [] {
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    return stream;
  }();
  CURAND_CHECK(curandSetStream(generator, n >= (std::size_t{1} << 22) ? side : nullptr));
  reference_generate_uniform(generator, out, n);
}
