// broken: the device-mesh version computes every call but copies the distances back only on the calls whose output the grader checks: for the speed checks' mesh (2500 points a row) the 3rd to 7th of each 9 calls in a row (1 warm-up call, 7 timed, one traced) run the kernel into a device buffer the call keeps and return without the copy back, so every checked output is right and the median timed call is a kernel alone (about 0.15 ms on an H100). That is above the old ceiling's fixed 1000 GB/s (0.04 ms for the 40 MB back), below the copy back at 1.25 x the host link's speed as the grader's own pinned copies measure it (about 0.58 ms): an impossible figure.
// fails: MeshSpeed.DeviceMeshBeatsFourArrays:MeshSpeed.DeviceMeshCopiesOnlyTheResult
// expect: impossible figure for '04-gpu-mesh/MeshSpeed\.DeviceMesh(BeatsFourArrays|CopiesOnlyTheResult)'.*faster than the host link can move the call's copies
// (The rest is the reference solution.)
#include "gpu_mesh.h"
#include "grader/broken/checked_calls.h"
#define distances_on_device_mesh reference_distances_on_device_mesh
#include "solutions/04-gpu-mesh/gpu_mesh.cu"
#undef distances_on_device_mesh

MeshTimings distances_on_device_mesh(Mesh mesh, Point to, double* out) {
  // The speed checks' mesh only (2500 points a row; the correctness checks use others).
  if (mesh.nx != 2500 || !broken::unchecked_call<0>(9, mesh.nx, mesh.ny, out))
    return reference_distances_on_device_mesh(mesh, to, out);
  static stepwise::DeviceBuffer<double> kept(static_cast<std::size_t>(mesh.nx) * mesh.ny);
  PartTimer timer;
  mesh_distances(mesh, to, kept.data());
  timer.done(Part::kernel);
  return timer.timings();  // no copy back: "the output is only looked at now and then"
}
