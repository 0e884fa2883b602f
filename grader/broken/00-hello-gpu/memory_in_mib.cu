// broken: the device query reports the GPU's memory in MiB, as nvidia-smi prints it, instead of in bytes.
// fails: DeviceQuery.MatchesTheRuntimeForEveryGpu
// expect: global_memory_bytes: the GPU's memory in bytes
// (The rest is the reference solution.)
#include "hello_gpu.h"
#define query_device reference_query_device
#include "solutions/00-hello-gpu/hello_gpu.cu"
#undef query_device

DeviceSummary query_device(int device) {
  DeviceSummary summary = reference_query_device(device);
  summary.global_memory_bytes /= 1024 * 1024;
  return summary;
}
