#include "grader/identity.h"

namespace grader {
const char* lesson() { return STEPWISE_LESSON; }
const char* track() { return STEPWISE_TRACK; }
const char* sanitizers() { return STEPWISE_SANITIZERS; }
}  // namespace grader

#include "grader/machine_code.h"

#include <sstream>

namespace grader {
const char* device_code_dir() { return STEPWISE_DEVICE_CODE_DIR; }
std::vector<std::string> device_code_sources() {
  std::vector<std::string> sources;
  std::istringstream list(STEPWISE_DEVICE_CODE_SOURCES);  // '|'-separated
  for (std::string source; std::getline(list, source, '|');)
    if (!source.empty()) sources.push_back(source);
  return sources;
}
}  // namespace grader
