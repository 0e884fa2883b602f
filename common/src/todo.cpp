#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace stepwise {

void not_implemented(const char* lesson_dir, int step) {
  throw NotImplemented(std::string("not implemented yet: ") + lesson_dir + "/README.md step " +
                       std::to_string(step));
}

}  // namespace stepwise
