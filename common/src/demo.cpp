#include "stepwise/demo.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace stepwise {

long long parse_integer(const std::string& text, const char* what, long long min, long long max) {
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < min || value > max)
    throw std::invalid_argument(std::string(what) + " must be a whole number from " +
                                std::to_string(min) + " to " + std::to_string(max) + ", got '" +
                                text + "'");
  return value;
}

double parse_number(const std::string& text, const char* what) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value))
    throw std::invalid_argument(std::string(what) + " must be a finite number, got '" + text + "'");
  return value;
}

}  // namespace stepwise
