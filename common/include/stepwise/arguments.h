#pragma once
// Argument checks for lesson code, which throw std::invalid_argument before anything is launched:
//
//   stepwise::require_at_least(n, 0, "n", "reduce_atomic");  // "reduce_atomic: n must be >= 0, got -3"
//
// The message is built out of line (common/src/arguments.cpp), so a lesson file needs neither
// <stdexcept> nor <string>: together a fifth of a small lesson file's compile time, paid on every save.
namespace stepwise {

// Throws std::invalid_argument("<function>: <what> must be >= <least>, got <value>").
[[noreturn]] void throw_too_small(const char* function, const char* what, long long least, long long value);

inline void require_at_least(long long value, long long least, const char* what, const char* function) {
  if (value < least) throw_too_small(function, what, least, value);
}

}  // namespace stepwise
