// Lesson 00 demo: a tiny nvidia-smi (what GPU is this?), a first kernel on a small grid (which
// block and thread wrote which element?), and what a launch the GPU rejects reports.
//   lesson00-demo [n] [threads_per_block]     defaults: 20 elements, blocks of 8 threads
// Try threads_per_block = 2048 to see the error yourself.
#include <cstdio>
#include <string>
#include <vector>

#include "hello_gpu.h"
#include "stepwise/buffers.h"
#include "stepwise/cuda_error.h"
#include "stepwise/demo.h"

namespace {

std::string version_text(int version) {  // CUDA writes 13.0 as 13000
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// The family name NVIDIA gives each compute capability, for the ones CUDA 13 supports.
const char* architecture(int major, int minor) {
  if (major < 7 || (major == 7 && minor < 5)) return "too old for CUDA 13, which needs 7.5 or newer";
  if (major == 7) return "Turing";
  if (major == 8) return minor == 9 ? "Ada Lovelace" : "Ampere";
  if (major == 9) return "Hopper";
  if (major <= 12) return "Blackwell";
  return "newer than this demo knows";
}

void print_device(int device) {
  const DeviceSummary gpu = query_device(device);
  const double mib = 1024.0 * 1024.0;
  std::printf("GPU %d: %s\n", device, gpu.name.c_str());
  std::printf("  compute capability     %d.%d (%s)\n", gpu.major, gpu.minor, architecture(gpu.major, gpu.minor));
  std::printf("  multiprocessors (SMs)  %d\n", gpu.multiprocessors);
  std::printf("  global memory          %.0f MiB (%.1f GiB)\n", gpu.global_memory_bytes / mib,
              gpu.global_memory_bytes / (mib * 1024));
  std::printf("  L2 cache               %.1f MiB\n", gpu.l2_cache_bytes / mib);
  std::printf("  max threads per block  %d\n", gpu.max_threads_per_block);
  std::printf("  warp size              %d threads\n", gpu.warp_size);
}

// nvidia-smi's header and memory column: versions, and the memory in use right now.
void print_devices() {
  int driver = 0, runtime = 0, count = 0;
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  CUDA_CHECK(cudaGetDeviceCount(&count));
  std::printf("The driver runs CUDA programs up to version %s (nvidia-smi's \"CUDA Version\");\n"
              "this program was built with CUDA runtime %s. %d GPU(s) found.\n\n",
              version_text(driver).c_str(), version_text(runtime).c_str(), count);
  for (int device = 0; device < count; ++device) print_device(device);
  // Memory in use right now, like nvidia-smi's Memory-Usage column, for the GPU this program
  // uses (0). It includes this program's own CUDA context: look for it in nvidia-smi's list.
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  std::printf("Memory in use on GPU 0 right now: %.0f MiB of %.0f MiB (this program's CUDA context included)\n\n",
              (total_bytes - free_bytes) / 1048576.0, total_bytes / 1048576.0);
}

void show_who_wrote_what(int n, int threads_per_block, int warp_size) {
  stepwise::DeviceBuffer<int> d_index(n), d_block(n), d_thread(n);
  write_global_index(d_index.data(), n, threads_per_block);
  write_block_and_thread(d_block.data(), d_thread.data(), n, threads_per_block);
  // to_host() copies with cudaMemcpy, which waits for the kernels to finish first.
  const std::vector<int> index = d_index.to_host(), block = d_block.to_host(), thread = d_thread.to_host();

  const int blocks = (n + threads_per_block - 1) / threads_per_block;
  std::printf("write_global_index(out, n = %d, threads_per_block = %d)\n", n, threads_per_block);
  std::printf("  %d block(s) x %d threads = %d threads; %d of them are past the end and write nothing\n\n",
              blocks, threads_per_block, blocks * threads_per_block, blocks * threads_per_block - n);
  std::printf("  element  blockIdx.x  threadIdx.x  warp  out[i] = blockIdx.x * %d + threadIdx.x\n",
              threads_per_block);
  for (int i = 0; i < n; ++i)
    std::printf("  %7d  %10d  %11d  %4d  %6d\n", i, block[i], thread[i], thread[i] / warp_size, index[i]);
  if (threads_per_block % warp_size != 0)
    std::printf("\n  A block of %d threads is not a whole number of warps (%d threads): its last warp\n"
                "  runs with idle lanes. Block sizes that are multiples of %d waste none.\n",
                threads_per_block, warp_size, warp_size);
}

void show_rejected_launch(int n) {
  const int too_many = 2048;
  std::printf("\nNow a launch no GPU can run: %d threads per block (the limit is 1024).\n", too_many);
  stepwise::DeviceBuffer<int> d_out(n);
  try {
    write_global_index(d_out.data(), n, too_many);
    std::printf("  write_global_index returned normally: the launch was not checked, and the\n"
                "  output holds whatever was in memory before. Add CUDA_CHECK_LAUNCH() (step 2).\n");
    // The error waits for whoever calls cudaGetLastError next: collect it here, or the next
    // checked launch would report it as its own.
    std::printf("  The error was still waiting: %s\n", cudaGetErrorName(cudaGetLastError()));
  } catch (const stepwise::CudaError& e) {
    std::printf("  write_global_index threw stepwise::CudaError:\n  %s\n", e.what());
    std::printf("  Without the check the call would have returned as if all was well.\n");
  }
  // The rejected kernel never started, so the GPU is unharmed and the next launch works.
  write_global_index(d_out.data(), n, 256);
  const std::vector<int> out = d_out.to_host();
  std::printf("  The GPU is fine afterwards: the same call with 256 threads per block gives out[%d] = %d.\n",
              n - 1, out[n - 1]);
}

}  // namespace

int main(int argc, char** argv) {
  const int default_n = 20, default_threads_per_block = 8;
  const std::string help = stepwise::help_text("usage: lesson00-demo [n] [threads_per_block]", {
      {"n", "elements to write, 1 to 1000", std::to_string(default_n)},
      {"threads_per_block", "threads in each block, 1 to 65536; 2048 shows a launch the GPU rejects",
       std::to_string(default_threads_per_block)}});
  return stepwise::run_demo(argc, argv, help, [&] {
    const std::vector<std::string> args = stepwise::positional_arguments(argc, argv, 2);
    const int n = args.size() > 0 ? static_cast<int>(stepwise::parse_integer(args[0], "n", 1, 1000)) : default_n;
    const int threads_per_block =
        args.size() > 1 ? static_cast<int>(stepwise::parse_integer(args[1], "threads_per_block", 1, 1 << 16))
                        : default_threads_per_block;
    print_devices();
    show_who_wrote_what(n, threads_per_block, query_device(0).warp_size);
    show_rejected_launch(n);
  });
}
