#include "check_run.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <thread>

#include "process.h"
#include "records.h"

namespace runner {

namespace {

// -L ^exercise$ -L ^lesson-(00|01)$: CTest runs a test only if it matches every -L.
// -LE ^(speed|sanitizer)$: and none of these.
std::vector<std::string> selection(const Course& course, const std::string& track,
                                   const std::vector<std::string>& lessons, const std::vector<std::string>& skip) {
  std::string numbers, skipped;
  for (const std::string& slug : lessons) numbers += (numbers.empty() ? "" : "|") + slug.substr(0, 2);
  for (const std::string& label : skip) skipped += (skipped.empty() ? "" : "|") + label;
  std::vector<std::string> args{course.ctest, "--test-dir", course.build_dir.string(), "-L", "^" + track + "$",
                                "-L", "^lesson-(" + numbers + ")$"};
  if (!skip.empty()) args.insert(args.end(), {"-LE", "^(" + skipped + ")$"});
  return args;
}

}  // namespace

int run_checks(const Course& course, const std::string& track, const std::vector<std::string>& lessons,
               const std::vector<std::string>& skip, const Progress& progress) {
  if (lessons.empty()) return 0;
  const std::vector<std::string> select = selection(course, track, lessons, skip);

  // How many checks there are, so progress can say "17 of 54" from the start.
  int total = 0;
  std::vector<std::string> list = select;
  list.push_back("-N");
  static const std::regex total_line(R"(^Total Tests: ([0-9]+))");
  std::smatch match;
  run_lines(list, [&](const std::string& line) {
    if (std::regex_search(line, match, total_line)) total = std::stoi(match[1]);
  });

  // "  3/54 Test  #3: 00-hello-gpu/exercise/Suite.Test ......***Exception: SegFault  0.12 sec"
  static const std::regex start_line(R"(^\s*Start\s+[0-9]+: (\S+))");
  static const std::regex result_line(R"(^\s*([0-9]+)/([0-9]+) Test\s+#[0-9]+: (\S+) \.*\s*(.*?)\s+[0-9.]+ sec)");
  std::vector<std::string> args = select;
  args.insert(args.end(), {"--parallel", std::to_string(std::clamp(std::thread::hardware_concurrency(), 1u, 8u))});
  int done = 0;
  struct Stopped {
    std::string name, how;
  };
  std::vector<Stopped> stopped;
  run_lines(args, [&](const std::string& line) {
    if (std::regex_search(line, match, start_line)) {
      progress(done, total, match[1]);
    } else if (std::regex_search(line, match, result_line)) {
      done = std::stoi(match[1]);
      total = std::stoi(match[2]);
      const std::string how = match[4];
      if (how != "Passed" && how.find("Skipped") == std::string::npos) stopped.push_back({match[3], how});
      progress(done, total, match[3]);
    }
  });

  // A failed check normally wrote a FAIL or TODO record; one that did not stopped early.
  const std::vector<Record> records = load_records(course.results_dir(track));
  for (const Stopped& s : stopped) {
    const std::string prefix_end = "/" + track + "/";
    const std::size_t cut = s.name.find(prefix_end);
    if (cut == std::string::npos) continue;
    Record r;
    r.lesson = s.name.substr(0, cut);
    r.track = track;
    r.check = s.name.substr(cut + prefix_end.size());
    const bool recorded = std::any_of(records.begin(), records.end(), [&](const Record& x) {
      return x.lesson == r.lesson && x.check == r.check;
    });
    if (recorded) continue;
    // CTest's "***Exception: SegFault", "Subprocess aborted***Exception:", "***Timeout" -> the words.
    std::string how = std::regex_replace(s.how, std::regex(R"(\*+(Exception:)?\s*)"), " ");
    how.erase(0, how.find_first_not_of(' '));
    how.erase(how.find_last_not_of(' ') + 1);
    r.status = "FAIL";
    r.measured = "stopped without a result";
    r.detail = "stopped without a result (" + how + "): it crashed, timed out or was not built";
    r.rerun = shell_command({"ctest", "--test-dir", course.build_dir.string(), "-R", "^" + s.name + "$",
                             "--output-on-failure"});
    write_record(course.results_dir(track), r);
  }
  return done;
}

}  // namespace runner
