#pragma once
// Lesson 04: the distance from every point of a latitude/longitude mesh to one fixed point, in
// float64, three ways, each moving less data to the GPU than the one before (seed 002).
//
// The distance is the haversine great-circle distance on a sphere of radius kEarthRadiusKm:
//   a = sin^2((lat2 - lat1) / 2) + cos(lat1) * cos(lat2) * sin^2((lon2 - lon1) / 2)
//   distance = 2 * kEarthRadiusKm * atan2(sqrt(a), sqrt(1 - a))
// with every angle in radians (degrees * kRadiansPerDegree). Everything is double.
#include <vector>

constexpr double kEarthRadiusKm = 6371.0;  // the mean radius of the Earth
constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180.0;

// A place on the sphere, in degrees.
struct Point {
  double lat = 0;
  double lon = 0;
};

// An nx x ny mesh, as NumPy's meshgrid(linspace(lat_first, lat_last, nx),
// linspace(lon_first, lon_last, ny)) makes it: point (x, y), 0 <= x < nx and 0 <= y < ny, has
//   lat = lat_first + (lat_last - lat_first) * x / (nx - 1)   (lat_first when nx == 1)
//   lon = lon_first + (lon_last - lon_first) * y / (ny - 1)   (lon_first when ny == 1)
// and is stored at index y * nx + x. nx * ny must be below 2^31.
struct Mesh {
  double lat_first = 29, lat_last = 31;   // the seed's mesh: 1000 x 1000 points of
  double lon_first = 99, lon_last = 101;  // [29, 31] x [99, 101] degrees
  int nx = 1000, ny = 1000;
};

// Where the time of one version went, measured with CUDA events (see part_timer.h).
struct MeshTimings {
  std::vector<float> copy_in_ms;  // each host-to-device copy, in the order they were made
  float kernel_ms = 0;
  float copy_out_ms = 0;          // the distances back to the host
  float total_ms() const {        // all of the above
    float sum = kernel_ms + copy_out_ms;
    for (float ms : copy_in_ms) sum += ms;
    return sum;
  }
};

// Functions that take device pointers (from cudaMalloc) launch their kernel on the default
// stream and return without waiting for the GPU. Functions that take host pointers copy to and
// from the GPU themselves, wait for it, and return the timings of their parts. Every function
// throws stepwise::CudaError when CUDA fails, and does nothing for n == 0 or an empty mesh.

// Step 1: out[i] = the distance from (lat[i], lon[i]) to (to_lat[i], to_lon[i]) for every i in
// [0, n): four device arrays in, one thread per point.
void distances(const double* lat, const double* lon, const double* to_lat, const double* to_lon,
               double* out, int n);

// Step 2, the seed's first version: the same from four host arrays, copied to the GPU one by
// one, and the distances copied back into the host array out.
MeshTimings distances_from_four_arrays(const double* lat, const double* lon, const double* to_lat,
                                       const double* to_lon, double* out, int n);

// Step 3, the seed's second version: the fixed point passed as a value (a kernel argument)
// instead of two arrays that repeat it n times. Device pointers, then host pointers.
void distances_to_point(const double* lat, const double* lon, Point to, double* out, int n);
MeshTimings distances_from_two_arrays(const double* lat, const double* lon, Point to, double* out, int n);

// Step 4, the seed's third version: each thread computes its own mesh point from the mesh's
// bounds, so no array goes to the GPU. out receives mesh.nx * mesh.ny distances, in the mesh's
// order. Device pointer, then host pointer.
void mesh_distances(Mesh mesh, Point to, double* out);
MeshTimings distances_on_device_mesh(Mesh mesh, Point to, double* out);
