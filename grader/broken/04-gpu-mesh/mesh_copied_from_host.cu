// broken: the "device mesh" version builds the mesh on the host and copies it in, and starts its timer after those copies, so its own timings report no copy.
// fails: MeshSpeed.DeviceMeshCopiesOnlyTheResult
// expect: too slow for '04-gpu-mesh/MeshSpeed.DeviceMeshCopiesOnlyTheResult'
// (The rest is the reference solution.)
#include "gpu_mesh.h"
#define distances_on_device_mesh reference_distances_on_device_mesh
#include "solutions/04-gpu-mesh/gpu_mesh.cu"
#undef distances_on_device_mesh

#include "mesh_cpu.h"

MeshTimings distances_on_device_mesh(Mesh mesh, Point to, double* out) {
  if (mesh.nx == 0 || mesh.ny == 0) return {};
  const MeshArrays arrays = mesh_on_host(mesh);
  const auto d_lat = stepwise::DeviceBuffer<double>::from_host(arrays.lat);
  const auto d_lon = stepwise::DeviceBuffer<double>::from_host(arrays.lon);
  stepwise::DeviceBuffer<double> d_out(mesh_size(mesh));
  PartTimer timer;
  distances_to_point(d_lat.data(), d_lon.data(), to, d_out.data(), static_cast<int>(mesh_size(mesh)));
  timer.done(Part::kernel);
  timed_copy_out(d_out, out, timer);
  return timer.timings();
}
