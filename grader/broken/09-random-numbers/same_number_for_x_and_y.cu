// broken: the host-API count takes both x and y of a point from the same uniform, so every point lies on the diagonal and the estimate tends to 4/sqrt(2) = 2.83.
// fails: PiHostApi.CountsEveryPointOfTheUniforms
// expect: drawing x and y from the same number puts every point on the diagonal
// (The rest is the reference solution.)
#include "random_numbers.h"
#define estimate_pi_host_api reference_estimate_pi_host_api
#include "solutions/09-random-numbers/random_numbers.cu"
#undef estimate_pi_host_api

__global__ void diagonal_hits_kernel(const float2* points, std::size_t n, unsigned long long* hits) {
  unsigned long long inside = 0;
  const std::size_t stride = static_cast<std::size_t>(blockDim.x) * gridDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    inside += is_inside(points[i].x, points[i].x);
  const unsigned long long block_hits = block_sum(inside);
  if (threadIdx.x == 0) atomicAdd(hits, block_hits);
}

double estimate_pi_host_api(UniformGenerator& generator, float* uniforms, std::size_t n) {
  if (n == 0) throw std::invalid_argument("estimate_pi_host_api: n must be at least 1 point");
  generator.fill(uniforms, 2 * n);
  return pi_from_hits(diagonal_hits_kernel, n, n, reinterpret_cast<const float2*>(uniforms));
}
