#pragma once
// What this build contains and whether it can run on the GPU in this machine.
#include <string>

namespace stepwise {

// The CUDA architectures this build was compiled for, as CMake was told (e.g. "75" or "90-real").
const char* built_architectures();

// The machine code (SASS) in a list of CUDA architectures ("80;90", "90a-real", "75-virtual")
// that runs on compute capability major.minor: of the same major version and the newest minor
// version no newer than the GPU's (80 for 8.6 from "80;90"; an "a" architecture, e.g. 90a, on
// its own version alone), or 0 when the list has none (a "-virtual" entry is PTX, not SASS).
int machine_code_for(const std::string& architectures, int major, int minor);

struct GpuStatus {
  bool present = false;     // a GPU and a driver were found (the driver may still be too old)
  bool can_run = false;     // this build holds code (machine code or PTX) the GPU can run
  int major = 0, minor = 0; // the GPU's compute capability
  std::string name;         // e.g. "NVIDIA H100 80GB HBM3"
  std::string summary;      // one line: what was found, or why nothing can run
  std::string fix;          // what to do when !present or !can_run; empty otherwise
};

// Looks at device 0 once. Never throws: every problem becomes summary + fix. Where the build holds
// machine code for the GPU it asks the driver nothing that starts this process's CUDA context.
GpuStatus gpu_status();

}  // namespace stepwise
