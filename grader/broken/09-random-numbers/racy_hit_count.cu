// broken: each thread adds its hits to the total with a plain +=, not atomicAdd, so concurrent adds are lost and the count comes out low, by a different amount each run.
// fails: PiHostApi.CountsEveryPointOfTheUniforms
// expect: lost counts: is the add atomic
// (The rest is the reference solution.)
#include "random_numbers.h"
#define estimate_pi_host_api reference_estimate_pi_host_api
#include "solutions/09-random-numbers/random_numbers.cu"
#undef estimate_pi_host_api

__global__ void racy_hits_kernel(const float2* points, std::size_t n, unsigned long long* hits) {
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    if (is_inside(points[i].x, points[i].y)) *hits += 1;  // read, add, write: not atomic
}

double estimate_pi_host_api(UniformGenerator& generator, float* uniforms, std::size_t n) {
  if (n == 0) throw std::invalid_argument("estimate_pi_host_api: n must be at least 1 point");
  generator.fill(uniforms, 2 * n);
  return pi_from_hits(racy_hits_kernel, n, n, reinterpret_cast<const float2*>(uniforms));
}
