// broken: distances_on_device_mesh marks the kernel part before it launches the kernel, so kernel_ms times nothing and the kernel's time lands in copy_out_ms: every old check of the timings still passes.
// fails: DeviceMesh.HostVersionMatchesAndCopiesNothingIn
// expect: your kernel_ms \(the distance kernel\) says [0-9.e-]+ ms. the trace shows its work took
// (The rest is the reference solution.)
#include "gpu_mesh.h"
#define distances_on_device_mesh reference_distances_on_device_mesh
#include "solutions/04-gpu-mesh/gpu_mesh.cu"
#undef distances_on_device_mesh

MeshTimings distances_on_device_mesh(Mesh mesh, Point to, double* out) {
  if (mesh.nx == 0 || mesh.ny == 0) return {};
  stepwise::DeviceBuffer<double> d_out(static_cast<std::size_t>(mesh.nx) * mesh.ny);
  PartTimer timer;
  timer.done(Part::kernel);  // the mistake: the mark before the launch
  mesh_distances(mesh, to, d_out.data());
  timed_copy_out(d_out, out, timer);
  return timer.timings();
}
