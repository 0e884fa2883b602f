#include "stepwise/library_error.h"

#include <stdexcept>
#include <string>

namespace stepwise {

void throw_library_error(const char* call, const char* file, int line, const char* status) {
  throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " + status);
}

}  // namespace stepwise
