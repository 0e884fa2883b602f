#include "grader/yardstick.h"

#include "grader/requirements.h"

namespace grader {

testing::AssertionResult Yardstick::fast_enough() const {
  const Requirement required = requirement(key_);
  if (figure_ >= required.minimum) return testing::AssertionSuccess();
  return testing::AssertionFailure() << what_ << ", this check's yardstick, ran at " << figure_ << " x " << unit_
                                     << " (" << details_ << "), below its own minimum (" << required.describe() << ", "
                                     << key_ << "): " << consequence_;
}

}  // namespace grader
