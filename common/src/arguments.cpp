#include "stepwise/arguments.h"

#include <stdexcept>
#include <string>

namespace stepwise {

void throw_too_small(const char* function, const char* what, long long least, long long value) {
  throw std::invalid_argument(std::string(function) + ": " + what + " must be >= " + std::to_string(least) +
                              ", got " + std::to_string(value));
}

void throw_size_mismatch(const char* function, std::size_t host_values, std::size_t device_values) {
  throw std::invalid_argument(std::string(function) + ": the host vector has " + std::to_string(host_values) +
                              " values, the device buffer " + std::to_string(device_values));
}

}  // namespace stepwise
