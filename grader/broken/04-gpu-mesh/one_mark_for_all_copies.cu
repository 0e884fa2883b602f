// broken: the four-array version marks one copy_in after all four copies, so its timings cannot tell the copies apart.
// fails: FourArrays.TimesEachCopy
// expect: this version copies 4 arrays to the GPU
// (The rest is the reference solution.)
#include "gpu_mesh.h"
#define distances_from_four_arrays reference_distances_from_four_arrays
#include "solutions/04-gpu-mesh/gpu_mesh.cu"
#undef distances_from_four_arrays

MeshTimings distances_from_four_arrays(const double* lat, const double* lon, const double* to_lat,
                                       const double* to_lon, double* out, int n) {
  if (n == 0) return {};
  stepwise::DeviceBuffer<double> d_lat(n), d_lon(n), d_to_lat(n), d_to_lon(n), d_out(n);
  PartTimer timer;
  const std::size_t bytes = d_lat.bytes();
  CUDA_CHECK(cudaMemcpy(d_lat.data(), lat, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_lon.data(), lon, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_to_lat.data(), to_lat, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_to_lon.data(), to_lon, bytes, cudaMemcpyHostToDevice));
  timer.done(Part::copy_in);
  distances(d_lat.data(), d_lon.data(), d_to_lat.data(), d_to_lon.data(), d_out.data(), n);
  timer.done(Part::kernel);
  timed_copy_out(d_out, out, timer);
  return timer.timings();
}
