#include "stepwise/arguments.h"

#include <stdexcept>
#include <string>

namespace stepwise {

void throw_too_small(const char* function, const char* what, long long least, long long value) {
  throw std::invalid_argument(std::string(function) + ": " + what + " must be >= " + std::to_string(least) +
                              ", got " + std::to_string(value));
}

}  // namespace stepwise
