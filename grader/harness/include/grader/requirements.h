#pragma once
// The speed requirements file (grader/requirements.txt, or the file named by
// STEPWISE_REQUIREMENTS), read at run time so an instructor can adapt it to a classroom's GPUs.
// Each line: "<NN-slug>/<Suite>.<Test>  <minimum>  <what the figure means>", keyed by the speed
// check's own name; '#' starts a comment.
// STEPWISE_SPEED_SCALE (e.g. 0.5) multiplies every minimum.
#include <string>

namespace grader {

struct Requirement {
  double minimum = 0;    // after scaling
  std::string meaning;   // e.g. "x device copy bandwidth"
  std::string describe() const;  // e.g. ">= 0.50 x device copy bandwidth"
};

// Throws std::runtime_error naming the file and line for a malformed file, or the key when the
// file has no such requirement.
Requirement requirement(const std::string& key);

// The scale factor from STEPWISE_SPEED_SCALE (1 when unset); throws for a bad value.
double speed_scale();

}  // namespace grader
