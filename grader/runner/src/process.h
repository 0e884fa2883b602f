#pragma once
// Running another program (CMake, CTest) and reading its output line by line.
#include <functional>
#include <string>
#include <vector>

namespace runner {

// The arguments quoted for the shell, joined by spaces: {"ctest", "-R", "a b"} -> ctest -R 'a b'.
std::string shell_command(const std::vector<std::string>& args);

// Runs `args` with stdout and stderr together, calling on_line for each line of output as it
// comes. Returns the program's exit status (-1 when it could not be started or was killed).
// The make variables of a surrounding build (MAKEFLAGS...) are not passed on, so a build
// started here is a build of its own, whatever runs the runner.
int run_lines(const std::vector<std::string>& args, const std::function<void(const std::string&)>& on_line);

}  // namespace runner
