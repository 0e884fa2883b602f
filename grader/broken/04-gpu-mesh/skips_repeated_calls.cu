// broken: right, but a call with the same mesh size and output as the call before returns at once ("the distances are still there"), whatever the point, so timing repeated calls times nothing.
// fails: MeshSpeed.DeviceMeshBeatsFourArrays
// expect: output of the timed call is wrong: was the work skipped
// (The rest is the reference solution.)
#include "gpu_mesh.h"
#include "grader/broken/tricks.h"
#define distances_on_device_mesh reference_distances_on_device_mesh
#include "solutions/04-gpu-mesh/gpu_mesh.cu"
#undef distances_on_device_mesh

MeshTimings distances_on_device_mesh(Mesh mesh, Point to, double* out) {
  static MeshTimings last;
  if (broken::same_as_last_call(mesh.nx, mesh.ny, out)) return last;
  return last = reference_distances_on_device_mesh(mesh, to, out);
}
