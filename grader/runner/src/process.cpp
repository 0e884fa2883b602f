#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

// The environment a child gets: this one, without a surrounding build's make variables, with
// `added` (NAME=value) in place of any same-named variable.
std::vector<std::string> child_environment(const std::vector<std::string>& added) {
  std::vector<std::string> env;
  auto name_of = [](const std::string& setting) { return setting.substr(0, setting.find('=')); };
  for (char** variable = environ; *variable != nullptr; ++variable) {
    const std::string setting = *variable, name = name_of(setting);
    const bool make = name == "MAKEFLAGS" || name == "MFLAGS" || name == "MAKELEVEL" || name == "MAKEOVERRIDES";
    const bool replaced = std::any_of(added.begin(), added.end(), [&](const std::string& a) { return name_of(a) == name; });
    if (!make && !replaced) env.push_back(setting);
  }
  env.insert(env.end(), added.begin(), added.end());
  return env;
}

int run_lines(const std::vector<std::string>& args, const std::function<void(const std::string&)>& on_line,
              const RunOptions& options) {
  if (args.empty()) return -1;
  // Everything the child needs is made before fork(): another thread may hold the allocator's lock.
  const std::vector<std::string> env = child_environment(options.env);
  std::vector<char*> argv, envp;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  for (const std::string& setting : env) envp.push_back(const_cast<char*>(setting.c_str()));
  envp.push_back(nullptr);
  const std::string dir = options.dir.string();
  RunEnd unused;
  RunEnd& end = options.ended != nullptr ? *options.ended : unused;
  end = RunEnd{};
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    end.status = 127 << 8;
    return -1;
  }
  const pid_t child = fork();
  if (child < 0) {
    close(out[0]);
    close(out[1]);
    end.status = 127 << 8;
    return -1;
  }
  if (child == 0) {  // its own process group, so that an overdue run is killed with what it started
    setpgid(0, 0);
    dup2(out[1], STDOUT_FILENO);
    dup2(out[1], STDERR_FILENO);
    if (options.no_core_dumps) {
      const rlimit none{0, 0};
      setrlimit(RLIMIT_CORE, &none);
    }
    if (options.most_file_bytes > 0) {
      const rlimit most{static_cast<rlim_t>(options.most_file_bytes), static_cast<rlim_t>(options.most_file_bytes)};
      setrlimit(RLIMIT_FSIZE, &most);
    }
    if (!dir.empty() && chdir(dir.c_str()) != 0) _exit(126);
    execvpe(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  setpgid(child, child);
  close(out[1]);
  bool killed = false, ended = false;
  int status = 0;
  std::string line;
  char chunk[4096];
  for (;;) {
    // Waking often when the program's end matters (what it left running may hold the pipe open).
    pollfd ready{out[0], POLLIN, 0};
    const int polled = poll(&ready, 1, options.ends_with_the_program ? 20 : 1000);
    if (!killed && options.overdue && options.overdue()) {  // also while it keeps printing
      kill(-child, SIGKILL);
      killed = true;
    }
    if (options.ends_with_the_program && !ended && waitpid(child, &status, WNOHANG) == child) {
      ended = true;
      kill(-child, SIGKILL);  // what it started and left behind
    }
    if (polled == 0 || (polled < 0 && errno == EINTR)) continue;
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
  if (!ended)
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
  if (options.ends_with_the_program) kill(-child, SIGKILL);
  end.killed = killed;
  end.status = status;
  return !killed && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace runner
