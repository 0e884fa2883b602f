#include "grader/identity.h"

namespace grader {
const char* lesson() { return STEPWISE_LESSON; }
const char* track() { return STEPWISE_TRACK; }
}  // namespace grader
