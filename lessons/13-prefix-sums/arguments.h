// Lesson 13: the argument check every function of scan.cu and cub_calls.cu starts with (given).
#pragma once

#include <stdexcept>
#include <string>

// Throws std::invalid_argument naming the function and the argument when value is negative.
inline void require_valid(long long value, const char* what, const char* function) {
  if (value < 0)
    throw std::invalid_argument(std::string(function) + ": " + what + " must be >= 0, got " + std::to_string(value));
}
