// broken: the mesh kernel has no bounds check, so the threads of the grid's last column and row of blocks, which lie outside the mesh, write too.
// fails: DeviceMesh.OddAndTinyMeshes
// expect: wrote past the end of the output
// (The rest is the reference solution.)
#include "gpu_mesh.h"
// Both the kernel and the function that launches it are replaced: a renamed kernel alone would
// leave the solution's launcher calling the solution's kernel.
#define mesh_distances_kernel reference_mesh_distances_kernel
#define mesh_distances reference_mesh_distances
#include "solutions/04-gpu-mesh/gpu_mesh.cu"
#undef mesh_distances_kernel
#undef mesh_distances

__global__ void mesh_distances_kernel(Mesh mesh, Point to, double* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const double lat = mesh.nx == 1 ? mesh.lat_first : mesh.lat_first + (mesh.lat_last - mesh.lat_first) * x / (mesh.nx - 1);
  const double lon = mesh.ny == 1 ? mesh.lon_first : mesh.lon_first + (mesh.lon_last - mesh.lon_first) * y / (mesh.ny - 1);
  out[y * mesh.nx + x] = haversine_km(lat, lon, to.lat, to.lon);
}

void mesh_distances(Mesh mesh, Point to, double* out) {
  if (mesh.nx == 0 || mesh.ny == 0) return;
  mesh_distances_kernel<<<dim3((mesh.nx + 31) / 32, (mesh.ny + 7) / 8), dim3(32, 8)>>>(mesh, to, out);
  CUDA_CHECK_LAUNCH();
}
