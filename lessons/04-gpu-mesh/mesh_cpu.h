#pragma once
// Given, not an exercise: the host side of lesson 04. The mesh as arrays on the host (what the
// seed builds with NumPy's meshgrid before copying it), and the reference distances in long
// double, which the grader and the demo compare the GPU's float64 results with.
#include <cmath>
#include <cstddef>
#include <vector>

#include "gpu_mesh.h"

// The latitude of column x and the longitude of row y, by the header's formulas.
inline double mesh_lat(const Mesh& m, int x) {
  return m.nx == 1 ? m.lat_first : m.lat_first + (m.lat_last - m.lat_first) * x / (m.nx - 1);
}
inline double mesh_lon(const Mesh& m, int y) {
  return m.ny == 1 ? m.lon_first : m.lon_first + (m.lon_last - m.lon_first) * y / (m.ny - 1);
}

inline std::size_t mesh_size(const Mesh& m) { return static_cast<std::size_t>(m.nx) * m.ny; }

// Every point of the mesh, as two arrays in the mesh's order (index y * nx + x).
struct MeshArrays {
  std::vector<double> lat, lon;
};

inline MeshArrays mesh_on_host(const Mesh& m) {
  MeshArrays arrays;
  arrays.lat.resize(mesh_size(m));
  arrays.lon.resize(mesh_size(m));
  for (int y = 0; y < m.ny; ++y) {
    for (int x = 0; x < m.nx; ++x) {
      arrays.lat[static_cast<std::size_t>(y) * m.nx + x] = mesh_lat(m, x);
      arrays.lon[static_cast<std::size_t>(y) * m.nx + x] = mesh_lon(m, y);
    }
  }
  return arrays;
}

// The haversine distance in long double (64 significant bits on x86, 53 where long double is
// double): the kernels' formula, more precisely.
inline long double reference_distance_km(double lat1, double lon1, double lat2, double lon2) {
  const long double radians_per_degree = 3.14159265358979323846264338327950288L / 180;
  const long double half_dlat = (static_cast<long double>(lat2) - lat1) * radians_per_degree / 2;
  const long double half_dlon = (static_cast<long double>(lon2) - lon1) * radians_per_degree / 2;
  const long double sin_dlat = std::sin(half_dlat), sin_dlon = std::sin(half_dlon);
  const long double a = sin_dlat * sin_dlat + std::cos(lat1 * radians_per_degree) *
                                                  std::cos(lat2 * radians_per_degree) * sin_dlon * sin_dlon;
  return 2 * static_cast<long double>(kEarthRadiusKm) * std::atan2(std::sqrt(a), std::sqrt(1 - a));
}

// The reference distances from every mesh point to `to`.
inline std::vector<double> reference_mesh_distances(const Mesh& m, Point to) {
  std::vector<double> km(mesh_size(m));
  for (int y = 0; y < m.ny; ++y)
    for (int x = 0; x < m.nx; ++x)
      km[static_cast<std::size_t>(y) * m.nx + x] =
          static_cast<double>(reference_distance_km(mesh_lat(m, x), mesh_lon(m, y), to.lat, to.lon));
  return km;
}
