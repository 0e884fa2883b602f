#include "process.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>

namespace runner {

std::string shell_command(const std::vector<std::string>& args) {
  std::string command;
  for (const std::string& arg : args) {
    if (!command.empty()) command += ' ';
    const bool plain = !arg.empty() && arg.find_first_not_of(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:+,@") == std::string::npos;
    if (plain) {
      command += arg;
      continue;
    }
    command += '\'';
    for (char c : arg) command += c == '\'' ? std::string("'\\''") : std::string(1, c);
    command += '\'';
  }
  return command;
}

int run_lines(const std::vector<std::string>& args, const std::function<void(const std::string&)>& on_line) {
  for (const char* name : {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"}) unsetenv(name);
  FILE* pipe = popen((shell_command(args) + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  std::string line;
  char chunk[4096];
  while (std::fgets(chunk, sizeof chunk, pipe) != nullptr) {
    line += chunk;
    if (!line.empty() && line.back() == '\n') {
      line.pop_back();
      on_line(line);
      line.clear();
    }
  }
  if (!line.empty()) on_line(line);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace runner
