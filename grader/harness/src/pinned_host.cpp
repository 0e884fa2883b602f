#include "grader/pinned_host.h"

#include <cuda_runtime.h>
#include <sys/mman.h>

#include <cstring>
#include <fstream>
#include <string>

#include "grader/cpu_parallel.h"
#include "stepwise/check.h"
#include "stepwise/cuda_error.h"

namespace grader {
namespace {

// /proc/meminfo's MemAvailable in bytes: what the host can give without swapping (0: unknown).
std::size_t host_bytes_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string name;
  std::size_t kib = 0;
  std::string unit;
  while (meminfo >> name >> kib >> unit)
    if (name == "MemAvailable:") return kib * 1024;
  return 0;
}

}  // namespace

void* pin_host_memory(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  // Asked for first: memory the host does not have would be written below, and the process
  // killed, where cudaMallocHost would have said no.
  const std::size_t available = host_bytes_available();
  if (available > 0 && bytes > available)
    throw stepwise::CudaError(cudaErrorMemoryAllocation, std::to_string(bytes) + " bytes of pinned host memory, more than the " +
                                                             std::to_string(available) + " the host has available");
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED)
    throw stepwise::CudaError(cudaErrorMemoryAllocation, "mmap of " + std::to_string(bytes) + " bytes of host memory failed");
  // Where transparent huge pages are off, or not given, the memory still works in 4 KiB pages.
  (void)madvise(memory, bytes, MADV_HUGEPAGE);
  // The first write makes the pages; on several cores that is faster than cudaHostRegister's one
  // thread faulting them in.
  constexpr std::size_t kLeastBytesPerThread = std::size_t{64} << 20;
  in_parallel(bytes, [&](std::size_t begin, std::size_t end) { std::memset(static_cast<char*>(memory) + begin, 0, end - begin); },
              kLeastBytesPerThread);
  const cudaError_t pinned = cudaHostRegister(memory, bytes, cudaHostRegisterDefault);
  if (pinned != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky
    munmap(memory, bytes);
    throw stepwise::CudaError(pinned, std::string("cudaHostRegister of ") + std::to_string(bytes) +
                                          " bytes of host memory: " + cudaGetErrorString(pinned));
  }
  return memory;
}

void unpin_host_memory(void* memory, std::size_t bytes) {
  if (memory == nullptr) return;
  (void)cudaHostUnregister(memory);
  munmap(memory, bytes);
}

}  // namespace grader
