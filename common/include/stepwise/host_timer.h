#pragma once
// Timing on the host's wall clock: for work on the CPU, and for whole calls whose parts the GPU's
// events cannot see (host setup, pageable copies).
//
//   const double cpu_ms = stepwise::host_ms([&] { reference(x, out); });
#include <chrono>

namespace stepwise {

// Runs `work` once and returns the milliseconds it took on the host clock.
template <typename Work>
double host_ms(Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace stepwise
