#pragma once
// Running another program (CMake, CTest, a lesson's checks) and reading its output line by line.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace runner {

// The arguments quoted for the shell, joined by spaces: {"ctest", "-R", "a b"} -> ctest -R 'a b'.
std::string shell_command(const std::vector<std::string>& args);

struct RunOptions {
  std::filesystem::path dir;           // where it runs ("": here)
  std::vector<std::string> env;        // NAME=value, added to this process's environment
  std::function<bool()> overdue;       // asked about once a second: true kills it (and what it started)
};

// Runs `args` with stdout and stderr together, calling on_line for each line of output as it
// comes. Returns the program's exit status (-1 when it could not be started, was killed by a
// signal, or was found overdue). The make variables of a surrounding build (MAKEFLAGS...) are not
// passed on, so a build started here is a build of its own, whatever runs the runner.
int run_lines(const std::vector<std::string>& args, const std::function<void(const std::string&)>& on_line,
              const RunOptions& options = {});

}  // namespace runner
