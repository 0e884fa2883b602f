#include "ctest_listing.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "process.h"
#include "replace_file.h"

namespace runner {

namespace fs = std::filesystem;

namespace {

// "<path> <size> <time>", or "" for a path that is no regular file.
std::string file_state(const fs::path& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return "";
  const auto size = fs::file_size(path, error);
  const auto time = fs::last_write_time(path, error);
  if (error) return "";
  return path.string() + " " + std::to_string(size) + " " + std::to_string(time.time_since_epoch().count());
}

// A test program's stamp of its checks (<program>.checks, cmake/AddLesson.cmake), where it has one:
// the program is linked again at every save of the student's code, its checks only change with
// the stamp. Otherwise the file itself.
fs::path checks_stamp_or(const fs::path& file) {
  fs::path stamp = file;
  stamp += ".checks";
  std::error_code error;
  return fs::is_regular_file(stamp, error) ? stamp : file;
}

// What a listing was made from, one line per file (sorted): see ctest_listing.
std::string made_from(const fs::path& test_dir, const std::string& json_text) {
  std::set<std::string> lines;
  std::error_code error;
  for (fs::recursive_directory_iterator it(test_dir, fs::directory_options::skip_permission_denied, error), end;
       !error && it != end; it.increment(error)) {
    if (it->is_directory(error) && it->path().filename() == "CMakeFiles") {
      it.disable_recursion_pending();  // the build's own files: a new configure rewrites the scripts anyway
      continue;
    }
    if (it->path().extension() == ".cmake") lines.insert(file_state(it->path()));
  }
  // The files the tests' commands name, as arguments or after "NAME=" (-D TEST_EXECUTABLE=<file>).
  const nlohmann::json json = nlohmann::json::parse(json_text, nullptr, false);
  if (!json.is_discarded() && json.contains("tests"))
    for (const nlohmann::json& test : json["tests"])
      for (const std::string& arg : test.value("command", std::vector<std::string>{})) {
        const std::size_t equals = arg.find('=');
        for (const std::string& named : {arg, equals == std::string::npos ? std::string() : arg.substr(equals + 1)})
          if (!named.empty() && named.front() == '/') lines.insert(file_state(checks_stamp_or(named)));
      }
  lines.insert(file_state(fs::read_symlink("/proc/self/exe", error)));  // it says each check's kind
  lines.erase("");
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return in ? text.str() : "";
}

}  // namespace

std::string ctest_listing(const std::vector<std::string>& ctest_args, const fs::path& test_dir, const fs::path& cache_dir) {
  std::string command;
  for (const std::string& arg : ctest_args) command += arg + "\n";
  const std::string name = std::to_string(std::hash<std::string>{}(command));
  // One file, written whole (replace_file): what the list was made from, a line "--", the list.
  const fs::path kept = cache_dir / (name + ".json");
  const std::string kept_file = read_text(kept);
  const std::size_t cut = kept_file.find("\n--\n");
  if (cut != std::string::npos) {
    const std::string kept_text = kept_file.substr(cut + 4);
    if (kept_file.substr(0, cut + 1) == command + made_from(test_dir, kept_text)) return kept_text;
  }

  std::vector<std::string> args = ctest_args;
  args.push_back("--show-only=json-v1");
  std::string text;
  run_lines(args, [&](const std::string& line) {
    if (!text.empty() || line.rfind('{', 0) == 0) text += line + "\n";  // CTest's notes before it are not JSON
  });
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.contains("tests"))
    throw std::runtime_error("CTest did not list the checks (" + shell_command(args) + " printed no JSON list)");
  // The key after the list: listing may write the discovered checks' scripts again.
  replace_file(kept, command + made_from(test_dir, text) + "--\n" + text);
  return text;
}

}  // namespace runner
