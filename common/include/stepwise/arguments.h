#pragma once
// Argument checks for lesson code, which throw std::invalid_argument before anything is launched:
//
//   stepwise::require_at_least(n, 0, "n", "reduce_atomic");  // "reduce_atomic: n must be >= 0, got -3"
//
// The message is built out of line (common/src/arguments.cpp), so a lesson file needs neither
// <stdexcept> nor <string>: together a fifth of a small lesson file's compile time, paid on every save.
#include <cstddef>

namespace stepwise {

// Throws std::invalid_argument("<function>: <what> must be >= <least>, got <value>").
[[noreturn]] void throw_too_small(const char* function, const char* what, long long least, long long value);

// Throws std::invalid_argument("<function>: the host vector has <host_values> values, the device
// buffer <device_values>"): a copy between two sizes (stepwise/buffers.h).
[[noreturn]] void throw_size_mismatch(const char* function, std::size_t host_values, std::size_t device_values);

inline void require_at_least(long long value, long long least, const char* what, const char* function) {
  if (value < least) throw_too_small(function, what, least, value);
}

}  // namespace stepwise
