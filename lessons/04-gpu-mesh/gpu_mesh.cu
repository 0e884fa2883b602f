// Lesson 04: the gpu mesh. Read README.md first: each TODO(step N) below is "Step N" there.
#include "gpu_mesh.h"

#include <cstddef>

#include "part_timer.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

__device__ double haversine_km(double lat1, double lon1, double lat2, double lon2) {
  // TODO(step 1): the formula at the top of gpu_mesh.h, in double: convert each angle with
  // kRadiansPerDegree, use sin, cos, atan2 and sqrt (not sinf: that is float), and return
  // 2.0 * kEarthRadiusKm * atan2(sqrt(a), sqrt(1.0 - a)). Replace the line below.
  return 0.0;
}

__global__ void distances_kernel(const double* lat, const double* lon, const double* to_lat,
                                 const double* to_lon, double* out, int n) {
  // TODO(step 1): one thread per point: the global index i, and if i < n,
  // out[i] = haversine_km(lat[i], lon[i], to_lat[i], to_lon[i]).
}

void distances(const double* lat, const double* lon, const double* to_lat, const double* to_lon,
               double* out, int n) {
  // TODO(step 1): return when n == 0; launch distances_kernel with blocks of 256 threads and
  // enough blocks for n points (round up); CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(1);
}

MeshTimings distances_from_four_arrays(const double* lat, const double* lon, const double* to_lat,
                                       const double* to_lon, double* out, int n) {
  // TODO(step 2): return {} when n == 0. Allocate five stepwise::DeviceBuffer<double>s of n
  // values (four inputs, one output), then start a PartTimer. Copy each of the four host
  // arrays to its device buffer with timed_copy_in; call distances(...) on the device buffers
  // and mark it with timer.done(Part::kernel); copy the result back into out with
  // timed_copy_out; return timer.timings(). Delete the line below.
  STEPWISE_TODO(2);
}

__global__ void distances_to_point_kernel(const double* lat, const double* lon, Point to, double* out, int n) {
  // TODO(step 3): as distances_kernel, with to.lat and to.lon for every point.
}

void distances_to_point(const double* lat, const double* lon, Point to, double* out, int n) {
  // TODO(step 3): launch distances_to_point_kernel as in step 1. Delete the line below.
  STEPWISE_TODO(3);
}

MeshTimings distances_from_two_arrays(const double* lat, const double* lon, Point to, double* out, int n) {
  // TODO(step 3): as step 2 with two arrays in (lat and lon) and distances_to_point.
  // Delete the line below.
  STEPWISE_TODO(3);
}

__global__ void mesh_distances_kernel(Mesh mesh, Point to, double* out) {
  // TODO(step 4): x = blockIdx.x * blockDim.x + threadIdx.x and y likewise with .y; return if
  // x >= mesh.nx or y >= mesh.ny. Compute this point's lat and lon by the formulas in
  // gpu_mesh.h (mind nx == 1 and ny == 1), then
  // out[y * mesh.nx + x] = haversine_km(lat, lon, to.lat, to.lon).
}

void mesh_distances(Mesh mesh, Point to, double* out) {
  // TODO(step 4): return when mesh.nx or mesh.ny is 0. Blocks of dim3(32, 8); a grid with
  // enough blocks along x for nx and along y for ny (round each up); launch
  // mesh_distances_kernel and CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(4);
}

MeshTimings distances_on_device_mesh(Mesh mesh, Point to, double* out) {
  // TODO(step 4): return {} for an empty mesh. One DeviceBuffer<double> of nx * ny values (use
  // std::size_t for the product), a PartTimer, mesh_distances(...) marked as Part::kernel, then
  // timed_copy_out and timer.timings(). Nothing is copied in. Delete the line below.
  STEPWISE_TODO(4);
}
