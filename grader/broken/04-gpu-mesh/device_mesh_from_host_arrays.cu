// broken: mesh_distances builds the mesh on the host (as the seed's first versions do) and copies it to the GPU before launching step 3's kernel: every distance is right, but the mesh is not built by a kernel and 16 bytes per point cross to the GPU.
// fails: DeviceMesh.SeedMeshMatchesReference
// expect: step 4 \(mesh_distances\).*copied [0-9.]+ MB host to device: the inputs and the output are on the device already
// (The rest is the reference solution.)
#include "gpu_mesh.h"
#define mesh_distances reference_mesh_distances
#include "solutions/04-gpu-mesh/gpu_mesh.cu"
#undef mesh_distances

#include "mesh_cpu.h"

void mesh_distances(Mesh mesh, Point to, double* out) {
  if (mesh.nx == 0 || mesh.ny == 0) return;
  const MeshArrays arrays = mesh_on_host(mesh);
  const auto d_lat = stepwise::DeviceBuffer<double>::from_host(arrays.lat);
  const auto d_lon = stepwise::DeviceBuffer<double>::from_host(arrays.lon);
  distances_to_point(d_lat.data(), d_lon.data(), to, out, static_cast<int>(mesh_size(mesh)));
  CUDA_CHECK(cudaDeviceSynchronize());  // before d_lat and d_lon are freed
}
