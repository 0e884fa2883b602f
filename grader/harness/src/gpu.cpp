#include "grader/gpu.h"

namespace grader {

const stepwise::GpuStatus& gpu() {
  static const stepwise::GpuStatus status = stepwise::gpu_status();
  return status;
}

}  // namespace grader
