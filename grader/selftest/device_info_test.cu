// Self-tests of stepwise::gpu_status (common/device_info.h): which machine code of a build runs on
// which GPU (CPU), and that looking at the GPU starts no CUDA context where the build holds
// machine code for it (GPU): a program that never uses the GPU (the outer process of a
// compute-sanitizer check) must not spend the driver's time starting one.
#include <cuda.h>
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include "stepwise/device_info.h"

namespace {

TEST(MachineCodeFor, TheNewestOfTheSameMajorVersionNoNewerThanTheGpu) {
  EXPECT_EQ(stepwise::machine_code_for("90", 9, 0), 90);
  EXPECT_EQ(stepwise::machine_code_for("80;90", 8, 6), 80);
  EXPECT_EQ(stepwise::machine_code_for("75;80;86", 8, 9), 86);
  EXPECT_EQ(stepwise::machine_code_for("90-real;100-real", 10, 3), 100);
  EXPECT_EQ(stepwise::machine_code_for("90", 8, 9), 0);   // machine code runs within its major version
  EXPECT_EQ(stepwise::machine_code_for("86", 8, 0), 0);   // not on an older minor version
  EXPECT_EQ(stepwise::machine_code_for("90-virtual", 9, 0), 0);  // PTX, which the driver compiles
  EXPECT_EQ(stepwise::machine_code_for("", 9, 0), 0);
}

TEST(MachineCodeFor, AnArchitectureOfItsOwnInstructionsRunsOnItsVersionAlone) {
  EXPECT_EQ(stepwise::machine_code_for("90a", 9, 0), 90);
  EXPECT_EQ(stepwise::machine_code_for("100a-real", 10, 3), 0);
  EXPECT_EQ(stepwise::machine_code_for("100a-real;100-real", 10, 3), 100);
}

// Run by CTest in a process of its own (one GoogleTest check per process), so no other check has
// started CUDA first.
TEST(GpuStatus, LooksAtTheGpuWithoutStartingCuda) {
  const stepwise::GpuStatus status = stepwise::gpu_status();
  if (!status.present) GTEST_SKIP() << status.summary;
  if (stepwise::machine_code_for(stepwise::built_architectures(), status.major, status.minor) == 0)
    GTEST_SKIP() << "this build holds no machine code for the GPU: gpu_status starts CUDA to ask the driver";
  EXPECT_TRUE(status.can_run) << status.summary;
  EXPECT_FALSE(status.name.empty());
  // The driver's own answer, through the runtime (this program does not link the driver, which a
  // machine without a GPU lacks): is device 0's primary context started?
  using PrimaryContextState = CUresult (*)(CUdevice, unsigned*, int*);
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  ASSERT_EQ(cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &function, 12000, cudaEnableDefault, &found),
            cudaSuccess);
  ASSERT_EQ(found, cudaDriverEntryPointSuccess);
  const auto started = [&] {
    unsigned flags = 0;
    int active = -1;
    EXPECT_EQ(reinterpret_cast<PrimaryContextState>(function)(0, &flags, &active), CUDA_SUCCESS);
    return active == 1;
  };
  EXPECT_FALSE(started()) << "gpu_status() started this process's CUDA context";
  // The test can tell: once CUDA is started, the same question says so.
  ASSERT_EQ(cudaFree(nullptr), cudaSuccess);
  EXPECT_TRUE(started());
}

}  // namespace
