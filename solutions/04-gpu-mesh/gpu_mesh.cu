// Lesson 04 reference solution: one distance kernel, fed three ways.
#include "gpu_mesh.h"

#include <algorithm>
#include <cstddef>

#include "part_timer.h"
#include "stepwise/check.h"

namespace {

constexpr int kThreadsPerBlock = 256;

// Rounded up for n > 0. (n + 255) / 256 would overflow int within 255 of INT_MAX.
int blocks_for(int n) { return (n - 1) / kThreadsPerBlock + 1; }

}  // namespace

// Step 1: the seed's a_cuda with the atan2 and the scaling moved onto the GPU, as its second
// version does. Double literals and double functions throughout: sin, not sinf.
// sinpi(x) is sin(pi * x), and cospi likewise: the angles are in degrees, so sinpi(degrees / 180)
// is the sine without rounding pi / 180 first. It is also cheaper than sin: sin(x) must reduce x
// modulo 2 pi, with a slow path (in local memory) for huge x; sinpi reduces modulo 2 exactly.
__device__ double haversine_km(double lat1, double lon1, double lat2, double lon2) {
  const double sin_half_dlat = sinpi((lat2 - lat1) / 360.0);
  const double sin_half_dlon = sinpi((lon2 - lon1) / 360.0);
  const double a = sin_half_dlat * sin_half_dlat + cospi(lat1 / 180.0) * cospi(lat2 / 180.0) * sin_half_dlon * sin_half_dlon;
  return 2.0 * kEarthRadiusKm * atan2(sqrt(a), sqrt(1.0 - a));
}

__global__ void distances_kernel(const double* lat, const double* lon, const double* to_lat,
                                 const double* to_lon, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = haversine_km(lat[i], lon[i], to_lat[i], to_lon[i]);
}

void distances(const double* lat, const double* lon, const double* to_lat, const double* to_lon,
               double* out, int n) {
  if (n == 0) return;
  distances_kernel<<<blocks_for(n), kThreadsPerBlock>>>(lat, lon, to_lat, to_lon, out, n);
  CUDA_CHECK_LAUNCH();
}

// Step 2: four arrays of 8n bytes cross to the GPU, and one comes back: 40 bytes per point
// over the host link, for a kernel that reads and writes them in a fraction of the time.
MeshTimings distances_from_four_arrays(const double* lat, const double* lon, const double* to_lat,
                                       const double* to_lon, double* out, int n) {
  if (n == 0) return {};
  stepwise::DeviceBuffer<double> d_lat(n), d_lon(n), d_to_lat(n), d_to_lon(n), d_out(n);
  PartTimer timer;
  timed_copy_in(d_lat, lat, timer);
  timed_copy_in(d_lon, lon, timer);
  timed_copy_in(d_to_lat, to_lat, timer);
  timed_copy_in(d_to_lon, to_lon, timer);
  distances(d_lat.data(), d_lon.data(), d_to_lat.data(), d_to_lon.data(), d_out.data(), n);
  timer.done(Part::kernel);
  timed_copy_out(d_out, out, timer);
  return timer.timings();
}

// Step 3: the fixed point travels in the launch's arguments, 16 bytes, instead of 16n bytes of
// arrays that repeat it. Every thread reads the same `to` (Numba's broadcasting).
// [docs:point-by-value-kernel]
__global__ void distances_to_point_kernel(const double* lat, const double* lon, Point to, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = haversine_km(lat[i], lon[i], to.lat, to.lon);
}
// [docs:end]

void distances_to_point(const double* lat, const double* lon, Point to, double* out, int n) {
  if (n == 0) return;
  distances_to_point_kernel<<<blocks_for(n), kThreadsPerBlock>>>(lat, lon, to, out, n);
  CUDA_CHECK_LAUNCH();
}

// [docs:two-arrays-timed]
MeshTimings distances_from_two_arrays(const double* lat, const double* lon, Point to, double* out, int n) {
  if (n == 0) return {};
  stepwise::DeviceBuffer<double> d_lat(n), d_lon(n), d_out(n);
  PartTimer timer;
  timed_copy_in(d_lat, lat, timer);
  timed_copy_in(d_lon, lon, timer);
  distances_to_point(d_lat.data(), d_lon.data(), to, d_out.data(), n);
  timer.done(Part::kernel);
  timed_copy_out(d_out, out, timer);
  return timer.timings();
}
// [docs:end]

// Step 4: the mesh is a formula, so each thread computes its own point from six numbers.
// One thread per point on a 2-D grid, as lesson 03 step 3: x along the latitudes, so a warp
// writes 32 neighbouring values of a row. A grid has at most 65,535 blocks along y, so a mesh
// of more rows than that many blocks hold is walked in strides of the grid's height, as lesson
// 03's grid-stride loops do; y is a long long, since y + stride may pass INT_MAX at the last step.
__global__ void mesh_distances_kernel(Mesh mesh, Point to, double* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= mesh.nx) return;
  // The same operations, in the same order, as the host's mesh: the same doubles, bit for bit.
  const double lat = mesh.nx == 1 ? mesh.lat_first : mesh.lat_first + (mesh.lat_last - mesh.lat_first) * x / (mesh.nx - 1);
  const long long grid_height = static_cast<long long>(blockDim.y) * gridDim.y;
  for (long long y = blockIdx.y * blockDim.y + threadIdx.y; y < mesh.ny; y += grid_height) {
    const double lon = mesh.ny == 1 ? mesh.lon_first : mesh.lon_first + (mesh.lon_last - mesh.lon_first) * y / (mesh.ny - 1);
    out[y * mesh.nx + x] = haversine_km(lat, lon, to.lat, to.lon);
  }
}

constexpr unsigned kMaxBlocksAlongY = 65535;  // CUDA's limit on a grid's y (2^31 - 1 along x)

void mesh_distances(Mesh mesh, Point to, double* out) {
  if (mesh.nx == 0 || mesh.ny == 0) return;
  const dim3 block(32, 8);
  // Rounded up as (n - 1) / b + 1 (n > 0 here); along y at most kMaxBlocksAlongY: a mesh of more
  // than 524,280 rows (8 x 65,535) has the kernel's loop do the rest.
  const unsigned rows_of_blocks = (mesh.ny - 1) / block.y + 1;
  const dim3 grid((mesh.nx - 1) / block.x + 1, std::min(rows_of_blocks, kMaxBlocksAlongY));
  mesh_distances_kernel<<<grid, block>>>(mesh, to, out);
  CUDA_CHECK_LAUNCH();
}

MeshTimings distances_on_device_mesh(Mesh mesh, Point to, double* out) {
  if (mesh.nx == 0 || mesh.ny == 0) return {};
  stepwise::DeviceBuffer<double> d_out(static_cast<std::size_t>(mesh.nx) * mesh.ny);
  PartTimer timer;
  mesh_distances(mesh, to, d_out.data());
  timer.done(Part::kernel);
  timed_copy_out(d_out, out, timer);
  return timer.timings();
}
