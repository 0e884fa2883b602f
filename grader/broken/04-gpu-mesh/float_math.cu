// broken: the four-array kernel computes the distance in float (sinf, cosf, float variables, sinpif): about 7 significant digits, where float64 gives 15.
// fails: Distances.RandomPointsMatchReference
// expect: values differ from the CPU reference
// (The rest is the reference solution.)
#include "gpu_mesh.h"
// Both the kernel and the function that launches it are replaced: a renamed kernel alone would
// leave the solution's launcher calling the solution's kernel.
#define distances_kernel reference_distances_kernel
#define distances reference_distances
#include "solutions/04-gpu-mesh/gpu_mesh.cu"
#undef distances_kernel
#undef distances

__device__ double float_haversine_km(float lat1, float lon1, float lat2, float lon2) {
  const float sin_half_dlat = sinpif((lat2 - lat1) / 360.0f);
  const float sin_half_dlon = sinpif((lon2 - lon1) / 360.0f);
  const float a = sin_half_dlat * sin_half_dlat +
                  cospif(lat1 / 180.0f) * cospif(lat2 / 180.0f) * sin_half_dlon * sin_half_dlon;
  return 2.0f * 6371.0f * atan2f(sqrtf(a), sqrtf(1.0f - a));
}

__global__ void distances_kernel(const double* lat, const double* lon, const double* to_lat,
                                 const double* to_lon, double* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = float_haversine_km(lat[i], lon[i], to_lat[i], to_lon[i]);
}

void distances(const double* lat, const double* lon, const double* to_lat, const double* to_lon,
               double* out, int n) {
  if (n == 0) return;
  distances_kernel<<<(n + 255) / 256, 256>>>(lat, lon, to_lat, to_lon, out, n);
  CUDA_CHECK_LAUNCH();
}
