// Lesson 04: the gpu mesh. Read README.md first: each TODO(step N) below is "Step N" there.
#include "gpu_mesh.h"

#include <cstddef>

#include "part_timer.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

__device__ double haversine_km(double lat1, double lon1, double lat2, double lon2) {
  // TODO(step 1): return the great-circle distance in km between the two places (angles in
  // degrees), by the haversine formula at the top of gpu_mesh.h, all in double: the grader wants
  // 11 significant digits, and float holds 7. Replace the line below.
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
  // enough blocks for n points (round up as (n - 1) / 256 + 1); CUDA_CHECK_LAUNCH(). Delete the
  // line below.
  STEPWISE_TODO(1);
}

MeshTimings distances_from_four_arrays(const double* lat, const double* lon, const double* to_lat,
                                       const double* to_lon, double* out, int n) {
  // TODO(step 2): version 1. Copy the four host arrays to the GPU, compute the distances there
  // with distances(), and copy them back into out. Return the time of each copy and of the
  // kernel, each measured on its own with a PartTimer (part_timer.h); allocating the device
  // memory is no part of them. n == 0 does nothing and returns {}. Delete the line below.
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
  // TODO(step 4): one thread per mesh point on a 2-D grid: the thread at (x, y) of the whole
  // grid stores, at out[y * mesh.nx + x], the distance from mesh point (x, y) (its latitude and
  // longitude by the formulas in gpu_mesh.h, which also cover nx == 1 and ny == 1) to `to`. The
  // grid is rounded up to whole blocks: threads outside the mesh must not write. A grid has at
  // most 65,535 blocks along y, so loop over y in strides of the grid's height
  // (blockDim.y * gridDim.y), with y a long long: then a mesh taller than that is covered too.
}

void mesh_distances(Mesh mesh, Point to, double* out) {
  // TODO(step 4): return when mesh.nx or mesh.ny is 0. Blocks of dim3(32, 8); a grid with
  // enough blocks along x for nx and along y for ny (round each up as (n - 1) / b + 1), but at
  // most 65,535 along y (the kernel's loop does the rest); launch mesh_distances_kernel and
  // CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(4);
}

MeshTimings distances_on_device_mesh(Mesh mesh, Point to, double* out) {
  // TODO(step 4): version 3. Make the mesh's distances on the GPU with mesh_distances, copy
  // nothing to the GPU, and copy the distances back into out; time the kernel and the copy as
  // in step 2. An empty mesh does nothing and returns {}. Compute nx * ny as a std::size_t.
  // Delete the line below.
  STEPWISE_TODO(4);
}
