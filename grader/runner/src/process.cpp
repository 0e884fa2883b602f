#include "process.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
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

int run_lines(const std::vector<std::string>& args, const std::function<void(const std::string&)>& on_line,
              const RunOptions& options) {
  if (args.empty()) return -1;
  int out[2];
  if (pipe(out) != 0) return -1;
  const pid_t child = fork();
  if (child < 0) {
    close(out[0]);
    close(out[1]);
    return -1;
  }
  if (child == 0) {  // its own process group, so that an overdue run is killed with what it started
    setpgid(0, 0);
    dup2(out[1], STDOUT_FILENO);
    dup2(out[1], STDERR_FILENO);
    close(out[0]);
    close(out[1]);
    for (const char* name : {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"}) unsetenv(name);
    for (const std::string& setting : options.env) {
      const std::size_t equals = setting.find('=');
      if (equals != std::string::npos) setenv(setting.substr(0, equals).c_str(), setting.substr(equals + 1).c_str(), 1);
    }
    if (!options.dir.empty() && chdir(options.dir.c_str()) != 0) _exit(126);
    std::vector<char*> argv;
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  setpgid(child, child);
  close(out[1]);
  bool killed = false;
  std::string line;
  char chunk[4096];
  for (;;) {
    pollfd ready{out[0], POLLIN, 0};
    const int polled = poll(&ready, 1, 1000);
    if (polled == 0 || (polled < 0 && errno == EINTR)) {
      if (!killed && options.overdue && options.overdue()) {
        kill(-child, SIGKILL);
        killed = true;
      }
      continue;
    }
    const ssize_t got = read(out[0], chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    for (ssize_t i = 0; i < got; ++i) {
      if (chunk[i] != '\n') {
        line += chunk[i];
        continue;
      }
      on_line(line);
      line.clear();
    }
  }
  if (!line.empty()) on_line(line);
  close(out[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
  return !killed && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace runner
