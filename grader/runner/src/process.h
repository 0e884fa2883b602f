#pragma once
// Running another program (CMake, CTest, a lesson's checks) and reading its output line by line.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace runner {

// The arguments quoted for the shell, joined by spaces: {"ctest", "-R", "a b"} -> ctest -R 'a b'.
std::string shell_command(const std::vector<std::string>& args);

// How a run ended (RunOptions::ended).
struct RunEnd {
  bool killed = false;  // found overdue, and killed with what it started
  int status = 0;       // waitpid's status (127 << 8 when it could not be started)
};

struct RunOptions {
  std::filesystem::path dir;           // where it runs ("": here)
  std::vector<std::string> env;        // NAME=value, added to this process's environment
  std::function<bool()> overdue;       // asked about at least once a second: true kills it (and what it started)
  bool ends_with_the_program = false;  // when the program ends, kill what it started and left running
  bool no_core_dumps = false;          // RLIMIT_CORE 0
  std::uint64_t most_file_bytes = 0;   // RLIMIT_FSIZE, when not 0
  RunEnd* ended = nullptr;             // filled in, when given
};

// Runs `args` with stdout and stderr together, calling on_line for each line of output as it
// comes. Returns the program's exit status (-1 when it could not be started, was killed by a
// signal, or was found overdue). The make variables of a surrounding build (MAKEFLAGS...) are not
// passed on, so a build started here is a build of its own, whatever runs the runner.
int run_lines(const std::vector<std::string>& args, const std::function<void(const std::string&)>& on_line,
              const RunOptions& options = {});

}  // namespace runner
