#pragma once
// What STEPWISE_TODO (stepwise/todo.h) throws: include this header where it is caught (the
// grader, the demos).
#include <stdexcept>

namespace stepwise {

class NotImplemented : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

}  // namespace stepwise
