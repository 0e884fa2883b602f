#include "check_run.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sys/wait.h>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "ctest_listing.h"
#include "grader/check_kind.h"
#include "grader/work_queue.h"
#include "hints.h"
#include "process.h"
#include "records.h"

namespace runner {

namespace {

using Clock = std::chrono::steady_clock;

// One CTest test, as `ctest --show-only=json-v1` describes it: what the runner needs to run it
// as CTest would (the properties cmake/AddLesson.cmake sets).
struct Test {
  std::string name;  // "05-streams/exercise/OneStream.MatchesCpuAtEverySize"
  std::vector<std::string> command, env, labels;
  std::string dir;
  double timeout = 1500;  // CTest's default
  int processors = 1;     // how many of the parallel jobs it counts as (a sanitizer check: 2)
  bool serial = false;    // RUN_SERIAL: nothing beside it (speed checks; a demo without flock)
  int skip_return_code = -1;             // SKIP_RETURN_CODE (a demo without a GPU: 77)
  std::vector<std::string> skip_output;  // SKIP_REGULAR_EXPRESSION ("\[  SKIPPED \]")
  bool labelled(const std::string& label) const {
    return std::find(labels.begin(), labels.end(), label) != labels.end();
  }
  // Where the command names its one GoogleTest check (gtest_discover_tests' command: [launcher...]
  // program --gtest_filter=<check> ...), or 0 if it names none.
  std::size_t filter_at() const {
    for (std::size_t i = 1; i < command.size(); ++i)
      if (command[i].rfind(kFilter, 0) == 0) return i;
    return 0;
  }
  // "OneStream.MatchesCpuAtEverySize" of a GoogleTest check, else "".
  std::string gtest_check() const {
    const std::size_t at = filter_at();
    return at == 0 ? "" : command[at].substr(kFilter.size());
  }
  static inline const std::string kFilter = "--gtest_filter=";
};

// The build folder whose tests CTest reads. One lesson: only its folder (CTest reads every
// folder's tests, 1.4 s over the whole course on an H100 machine, a watch's second after its build).
std::filesystem::path tests_folder(const Course& course, const std::vector<std::string>& lessons) {
  const Lesson* one = lessons.size() == 1 ? course.find(lessons.front()) : nullptr;
  return one != nullptr && !one->tests_dir.empty() ? one->tests_dir : course.build_dir;
}

// -L ^exercise$ -L ^lesson-(00|01)$: CTest runs a test only if it matches every -L.
// -LE ^(speed|sanitizer)$: and none of these.
std::vector<std::string> selection(const Course& course, const std::string& track,
                                   const std::vector<std::string>& lessons, const std::vector<std::string>& skip) {
  std::string numbers, skipped;
  for (const std::string& slug : lessons) numbers += (numbers.empty() ? "" : "|") + slug.substr(0, 2);
  for (const std::string& label : skip) skipped += (skipped.empty() ? "" : "|") + label;
  std::vector<std::string> args{course.ctest, "--test-dir", tests_folder(course, lessons).string(), "-L", "^" + track + "$",
                                "-L", "^lesson-(" + numbers + ")$"};
  if (!skip.empty()) args.insert(args.end(), {"-LE", "^(" + skipped + ")$"});
  return args;
}

std::vector<std::string> split_list(const std::string& list) {  // a CMake list: "a;b" -> {a, b}
  std::vector<std::string> items;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ';');)
    if (!item.empty()) items.push_back(item);
  return items;
}

// The checks of `lessons` that selection() selects, listed by CTest or kept from before.
std::vector<Test> list_tests(const Course& course, const std::string& track, const std::vector<std::string>& lessons,
                             const std::vector<std::string>& skip) {
  const std::string listed = ctest_listing(selection(course, track, lessons, skip), tests_folder(course, lessons),
                                            course.build_dir / "results" / "listings");
  const nlohmann::json json = nlohmann::json::parse(listed);
  std::vector<Test> tests;
  for (const nlohmann::json& entry : json["tests"]) {
    Test test;
    test.name = entry.value("name", "");
    test.command = program_command(entry.value("command", std::vector<std::string>{}));
    for (const nlohmann::json& property : entry.value("properties", nlohmann::json::array())) {
      const std::string name = property.value("name", "");
      const nlohmann::json& value = property["value"];
      if (name == "LABELS") test.labels = value.get<std::vector<std::string>>();
      if (name == "ENVIRONMENT") test.env = value.get<std::vector<std::string>>();
      if (name == "WORKING_DIRECTORY") test.dir = value.get<std::string>();
      if (name == "TIMEOUT") test.timeout = value.get<double>();
      if (name == "PROCESSORS") test.processors = value.get<int>();
      if (name == "RUN_SERIAL") test.serial = value.get<bool>();
      if (name == "SKIP_RETURN_CODE") test.skip_return_code = value.get<int>();
      if (name == "SKIP_REGULAR_EXPRESSION") test.skip_output = value.get<std::vector<std::string>>();
    }
    tests.push_back(test);
  }
  return tests;
}

std::string regex_escaped(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) escaped += '\\';
    escaped += c;
  }
  return escaped;
}

// The record of a check that ended without writing one.
void write_stopped(const Course& course, const std::string& track, const std::string& test, const std::string& how) {
  const std::string prefix_end = "/" + track + "/";
  const std::size_t cut = test.find(prefix_end);
  if (cut == std::string::npos) return;
  Record r;
  r.lesson = test.substr(0, cut);
  r.track = track;
  r.check = test.substr(cut + prefix_end.size());
  r.status = "FAIL";
  r.measured = "stopped without a result";
  r.detail = "stopped without a result (" + how + "): it crashed, timed out or was not built";
  r.rerun = shell_command({"ctest", "--test-dir", course.build_dir.string(), "-R", "^" + regex_escaped(test) + "$",
                           "--output-on-failure"});
  write_record(course.results_dir(track), r);
}

// The CTest name of a record's check: "05-streams/exercise/OneStream.MatchesCpuAtEverySize".
std::string test_name(const Record& r, const std::string& track) { return r.lesson + "/" + track + "/" + r.check; }

bool has_record(const std::vector<Record>& records, const std::string& test, const std::string& track) {
  return std::any_of(records.begin(), records.end(), [&](const Record& r) { return test_name(r, track) == test; });
}

// STEPWISE_RUN_LOG=<file>: when each process of a run started and ended, and each check of a shared
// process, appended to the file (benchmarks/grading-loop.sh reads it to say where a run's time
// goes; a check's line from its start shows how long it took in the crowd).
void log_event(const std::string& what) {
  static const Clock::time_point start = Clock::now();
  static std::mutex mutex;
  const char* file = std::getenv("STEPWISE_RUN_LOG");
  if (file == nullptr || *file == '\0') return;
  std::lock_guard<std::mutex> lock(mutex);
  if (FILE* out = std::fopen(file, "a")) {
    std::fprintf(out, "%8.2f %s\n", std::chrono::duration<double>(Clock::now() - start).count(), what.c_str());
    std::fclose(out);
  }
}

// A lesson program's GoogleTest checks that run in one process (grader/shared_run.h says how each
// keeps the verdict it would get alone).
struct SharedRun {
  std::vector<const Test*> checks;
  std::string killed_in;  // the check that ran past its time limit, if one did
  double expected = 0;    // seconds, from the earlier run's records
  bool alone = false;     // its checks hold the GPU alone: speed checks, and those that did last time
  bool one_work_queue = false;  // none of its checks times its work, as far as the records say (grader/work_queue.h)
  bool start_cuda_early = false;  // run in the first phase: STEPWISE_START_CUDA_EARLY (run_checks)
  bool left_one_work_queue = false;  // a check that times its work ended it (grader/work_queue.h)
};

// How long each check is expected to run: its earlier record's time, else a second (a check run
// for the first time, or by a program that wrote no times).
std::map<const Test*, double> expected_seconds(const std::vector<Test>& tests, const std::string& track,
                                               const std::vector<EarlierRecord>& earlier) {
  std::map<std::string, double> took;
  for (const EarlierRecord& e : earlier)
    if (e.record.seconds) took[test_name(e.record, track)] = *e.record.seconds;
  std::map<const Test*, double> expected;
  for (const Test& t : tests) {
    const auto found = took.find(t.name);
    expected[&t] = found == took.end() ? 1.0 : found->second;
  }
  return expected;
}

// The checks that hold the GPU alone: speed checks, and those whose earlier record says they did
// (grader::hold_the_gpu_alone, e.g. a correctness check that compares times); and among them
// those whose record says they held it for their device memory only, timing nothing.
struct HoldingTheGpuAlone {
  std::set<const Test*> all, for_memory_only;
};
HoldingTheGpuAlone holding_the_gpu_alone(const std::vector<Test>& tests, const std::string& track,
                                         const std::vector<EarlierRecord>& earlier) {
  std::set<std::string> held, for_memory;
  for (const EarlierRecord& e : earlier) {
    if (e.record.held_gpu_alone) held.insert(test_name(e.record, track));
    if (e.record.held_gpu_alone_for_memory) for_memory.insert(test_name(e.record, track));
  }
  HoldingTheGpuAlone alone;
  for (const Test& t : tests) {
    const bool speed = !t.gtest_check().empty() && grader::check_kind(t.gtest_check()) == grader::CheckKind::speed;
    if (held.count(t.name) > 0 || speed) alone.all.insert(&t);
    if (for_memory.count(t.name) > 0 && !speed) alone.for_memory_only.insert(&t);
  }
  return alone;
}

// The shared runs: each program's checks in as few processes as keep `jobs` workers evenly busy.
// A program whose checks would take longer than an even share of the whole (at least
// kLeastSecondsPerProcess: a process's CUDA start-up is not free) is split into processes of
// about that share, its checks placed longest first on the least loaded; the checks that hold the
// GPU alone keep a process of their own (they run one at a time anyway). Returned longest first,
// so that the long processes start first and the short ones fill in around them. Each gets one
// work queue but a process of checks that hold the GPU alone where one of them times its work.
std::vector<SharedRun> split_for_jobs(const std::map<std::string, SharedRun>& programs,
                                      const std::map<const Test*, double>& expected, int jobs,
                                      const HoldingTheGpuAlone& holding) {
  const std::set<const Test*>& alone = holding.all;
  constexpr double kLeastSecondsPerProcess = 1.0;
  double total = 0;
  for (const auto& [key, program] : programs)
    for (const Test* t : program.checks) total += expected.at(t);
  const double share = std::max(kLeastSecondsPerProcess, total / std::max(1, jobs));
  std::vector<SharedRun> runs;
  for (const auto& [key, program] : programs) {
    SharedRun speed;  // and every other check that holds the GPU alone
    speed.alone = true;
    speed.one_work_queue = true;  // until a check that times its work joins it
    std::vector<const Test*> others;
    double others_total = 0;
    for (const Test* t : program.checks) {
      if (alone.count(t) > 0) {
        speed.checks.push_back(t);
        speed.expected += expected.at(t);
        speed.one_work_queue = speed.one_work_queue && holding.for_memory_only.count(t) > 0;
      } else {
        others.push_back(t);
        others_total += expected.at(t);
      }
    }
    std::stable_sort(others.begin(), others.end(), [&](const Test* a, const Test* b) { return expected.at(a) > expected.at(b); });
    // At least as many processes as an even deal of the workers over the programs (a lesson graded
    // alone uses them all: its first run's times, or checks that stop at a TODO, say little).
    const double by_time = std::ceil(others_total / share);
    const double by_workers = std::floor(static_cast<double>(std::max(1, jobs)) / static_cast<double>(programs.size()));
    const std::size_t count = static_cast<std::size_t>(std::clamp(std::max(by_time, by_workers), 1.0,
                                                                  static_cast<double>(std::max<std::size_t>(1, others.size()))));
    std::vector<SharedRun> parts(count);
    for (SharedRun& part : parts) part.one_work_queue = true;
    for (const Test* t : others) {
      SharedRun& least = *std::min_element(parts.begin(), parts.end(),
                                           [](const SharedRun& a, const SharedRun& b) { return a.expected < b.expected; });
      least.checks.push_back(t);
      least.expected += expected.at(t);
    }
    parts.push_back(std::move(speed));
    for (SharedRun& part : parts)
      if (!part.checks.empty()) runs.push_back(std::move(part));
  }
  std::stable_sort(runs.begin(), runs.end(), [](const SharedRun& a, const SharedRun& b) { return a.expected > b.expected; });
  return runs;
}

// Runs with progress: the shared processes, and the checks in processes of their own.
class Runner {
 public:
  Runner(const Course& course, const std::string& track, int total, const Progress& progress)
      : course_(course), track_(track), total_(total), progress_(progress) {}

  void run_shared(SharedRun& run) {
    const Test& first = *run.checks.front();
    std::string filter;
    std::map<std::string, const Test*> by_check;
    for (const Test* t : run.checks) {
      filter += (filter.empty() ? "" : ":") + t->gtest_check();
      by_check[t->gtest_check()] = t;
    }
    std::vector<std::string> args = first.command;
    args[first.filter_at()] = Test::kFilter + filter;
    RunOptions options;
    options.dir = first.dir;
    options.env = first.env;
    options.env.push_back("STEPWISE_SHARED_RUN=1");  // STEPWISE_GPU_LOCK comes with first.env (cmake/AddLesson.cmake)
    if (run.start_cuda_early) options.env.push_back("STEPWISE_START_CUDA_EARLY=1");  // grader/harness/src/shared_run.cpp
    if (run.one_work_queue) grader::add_one_work_queue(options.env);
    // Both run on this thread, between reads of the program's output.
    std::string running;
    Clock::time_point started;
    std::set<std::string> ended;
    options.overdue = [&] {
      const auto found = by_check.find(running);
      if (found == by_check.end() || Clock::now() - started < std::chrono::duration<double>(found->second->timeout))
        return false;
      run.killed_in = found->second->name;
      return true;
    };
    const std::string described = first.name + (run.checks.size() > 1 ? " and " + std::to_string(run.checks.size() - 1) + " more" : "") +
                                  " (expected " + std::to_string(static_cast<int>(run.expected + 0.5)) + " s)";
    log_event("start " + described);
    static const std::regex run_line(R"(^\[ RUN      \] (\S+))");
    // "[       OK ] Suite.Name (12 ms)", "[  FAILED  ] Suite/P.Name/0, where GetParam() = 4 (3 ms)"
    static const std::regex end_line(R"(^\[ +(OK|FAILED|SKIPPED) +\] ([^ ,]+)(,| \())");
    std::smatch match;
    run_lines(args, [&](const std::string& line) {
      if (std::regex_search(line, match, run_line)) {
        running = match[1];
        started = Clock::now();
        log_event("  run " + running);
        if (by_check.count(running)) step(by_check[running]->name, false);
      } else if (std::regex_search(line, match, end_line) && ended.insert(match[2]).second &&
                 by_check.count(match[2])) {
        log_event("  " + match[1].str() + " " + match[2].str());
        step(by_check[match[2]]->name, true);
      } else if (line.rfind("[ stepwise ] ", 0) == 0 && line.find(" in processes of their own") != std::string::npos) {
        log_event("      " + line);  // why the process ends before its last check (grader/shared_run.h)
      } else if (line.rfind("[ stepwise ] ", 0) == 0 && line.find(grader::kLeftOneWorkQueue) != std::string::npos) {
        log_event("      " + line);
        run.left_one_work_queue = true;
      }
    }, options);
    log_event("end   " + described + ", " + std::to_string(ended.size()) + " ended in it");
  }

  // Each of `tests` in a process of its own, as CTest runs them for CI, from their properties in
  // `ctest --show-only=json-v1`: in its folder, with its environment (STEPWISE_GPU_LOCK, the lock
  // the harness takes: a check that compares times holds it alone, grader::hold_the_gpu_alone, so
  // its neighbours cannot lengthen what it times), killed with what it started at its TIMEOUT.
  // Every core: these are mostly compute-sanitizer's runs (busy, counted as their PROCESSORS, two
  // slots each), and they set how long a run takes once the shared processes are done; a RUN_SERIAL
  // test runs with nothing beside it. A check that ended otherwise than passed or skipped without
  // writing its record gets one saying how it stopped. With `one_work_queue` (tests that time
  // nothing: the demos, compute-sanitizer's runs) each gets one work queue (grader/work_queue.h).
  void run_each_alone(const std::vector<const Test*>& tests, bool one_work_queue) {
    if (tests.empty()) return;
    struct LogEnd {  // "start <what>", then "end   <what>, done"
      std::string what;
      explicit LogEnd(std::string w) : what(std::move(w)) { log_event("start " + what); }
      ~LogEnd() { log_event("end   " + what + ", done"); }
    } log_end(std::to_string(tests.size()) + " check(s) in processes of their own, from " + tests.front()->name);
    const int slots = std::max(jobs(), static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    std::mutex mutex;
    std::condition_variable freed;
    int used = 0;
    std::vector<std::pair<const Test*, std::string>> stopped;  // and how
    std::vector<std::thread> running;
    for (const Test* t : tests) {  // in order, each as soon as its slots are free
      const int takes = t->serial ? slots : std::clamp(t->processors, 1, slots);
      {
        std::unique_lock<std::mutex> lock(mutex);
        freed.wait(lock, [&] { return used + takes <= slots; });
        used += takes;
      }
      running.emplace_back([&, t, takes] {
        const std::string how = run_alone(*t, one_work_queue);
        std::lock_guard<std::mutex> lock(mutex);
        used -= takes;
        if (!how.empty()) stopped.emplace_back(t, how);
        freed.notify_all();
      });
    }
    for (std::thread& process : running) process.join();
    // A failed check normally wrote a FAIL or TODO record; one that did not stopped early.
    const std::vector<Record> records = load_records(course_.results_dir(track_));
    for (const auto& [t, how] : stopped)
      if (!has_record(records, t->name, track_)) write_stopped(course_, track_, t->name, how);
  }

  // One test in a process of its own; how it stopped, in words ("SegFault", "Timeout"), or "" when
  // it passed or skipped.
  std::string run_alone(const Test& t, bool one_work_queue) {
    step(t.name, false);
    log_event("start " + t.name);
    std::vector<std::regex> skip_output;
    for (const std::string& pattern : t.skip_output) {
      try {
        skip_output.emplace_back(pattern);
      } catch (const std::regex_error&) {  // CMake's regular expressions are not all ECMAScript's
      }
    }
    bool skipped = false;
    RunOptions options;
    options.dir = t.dir;
    options.env = t.env;
    if (one_work_queue) grader::add_one_work_queue(options.env);
    options.ends_with_the_program = true;  // what it left running does not hold the run open
    const Clock::time_point started = Clock::now();
    options.overdue = [&] { return Clock::now() - started >= std::chrono::duration<double>(t.timeout); };
    RunEnd end;
    options.ended = &end;
    run_lines(t.command, [&](const std::string& line) {
      for (const std::regex& pattern : skip_output) skipped = skipped || std::regex_search(line, pattern);
    }, options);
    const std::string how = skipped ? "" : stopped_how(end, t.skip_return_code);
    log_event("end   " + t.name + ", " + (how.empty() ? "done" : how));
    step(t.name, true);
    return how;
  }

  // How a process ended, in CTest's words where it has them: "" (exit status 0, or `skip_code`),
  // "Timeout", "SegFault", "Subprocess aborted", "Failed, exit status 1".
  static std::string stopped_how(const RunEnd& end, int skip_code) {
    if (end.killed) return "Timeout";
    if (WIFSIGNALED(end.status)) {
      switch (WTERMSIG(end.status)) {
        case SIGSEGV: case SIGBUS: return "SegFault";
        case SIGABRT: return "Subprocess aborted";
        case SIGILL: return "Illegal instruction";
        case SIGFPE: return "Numerical exception";
        default: return "killed by signal " + std::to_string(WTERMSIG(end.status));
      }
    }
    const int status = WIFEXITED(end.status) ? WEXITSTATUS(end.status) : -1;
    if (status == 0 || status == skip_code) return "";
    if (status == 127) return "Not run: exit status 127, the program could not be started";
    return "Failed, exit status " + std::to_string(status);
  }

  // How many processes at once: STEPWISE_JOBS, else one per core up to 8.
  static int jobs() {
    const char* chosen = std::getenv("STEPWISE_JOBS");
    if (chosen != nullptr && std::atoi(chosen) > 0) return std::atoi(chosen);
    return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  }
  int done() const { return done_; }

  // Progress: `name` started, or (finished) ended.
  void step(const std::string& name, bool finished) {
    std::lock_guard<std::mutex> lock(progress_mutex_);
    if (finished) ++done_;
    progress_(std::min(done_, total_), total_, name);
  }

  const Course& course_;
  const std::string& track_;
  const int total_;
  const Progress& progress_;
  std::mutex progress_mutex_;
  int done_ = 0;
};

// A sanitizer check repeats its program's GPU correctness checks under compute-sanitizer. When
// every one of them stopped at a step still to write, its run can end only in TODO or a FAIL of
// code that will change anyway: it says TODO, like they do, without the sanitizer's start-up.
bool write_todo_if_all_todo(const Course& course, const std::string& track, const Test& sanitizer,
                            const std::vector<Test>& tests, const std::vector<Record>& records) {
  const Record* first_todo = nullptr;
  for (const Test& t : tests) {
    if (t.command.empty() || t.command.front() != sanitizer.command.front() || t.gtest_check().empty() ||
        grader::check_kind(t.gtest_check()) != grader::CheckKind::correctness)
      continue;
    const auto found = std::find_if(records.begin(), records.end(), [&](const Record& r) { return test_name(r, track) == t.name; });
    if (found == records.end() || found->status != "TODO") return false;
    if (first_todo == nullptr) first_todo = &*found;
  }
  if (first_todo == nullptr) return false;
  Record r = *first_todo;
  r.check = sanitizer.gtest_check();
  r.measured = r.required = "";
  r.figure.reset();
  r.minimum.reset();
  r.rerun = shell_command({"ctest", "--test-dir", course.build_dir.string(), "-R",
                           "^" + regex_escaped(sanitizer.name) + "$", "--output-on-failure"});
  write_record(course.results_dir(track), r);
  return true;
}

// The STEPWISE_TODO(N) steps still on a code line of each lesson's exercise, read once per run.
class StepsLeft {
 public:
  explicit StepsLeft(const Course& course) : course_(course) {}
  const std::set<int>& of(const std::string& slug) {
    const auto [found, first] = steps_.try_emplace(slug);
    if (first) {
      const Lesson* lesson = course_.find(slug);
      if (lesson != nullptr) found->second = steps_left(course_.lesson_dir(*lesson));
    }
    return found->second;
  }

 private:
  const Course& course_;
  std::map<std::string, std::set<int>> steps_;
};

// The earlier TODO record of `test` that still holds, if any: written after its program was last
// built, or, for an exercise, naming a step whose STEPWISE_TODO(N) line is still in the code. The
// check stopped at that step's stub before, and reaches it again until the line is gone: a saved
// edit of another step, or a comment, does not run it again (the README's steps say to delete the
// line when the step is written). A kept record is never a PASS, so it can only withhold credit.
const Record* still_todo(const Test& test, const std::string& track, const std::vector<EarlierRecord>& earlier,
                         StepsLeft& steps) {
  if (test.command.empty()) return nullptr;
  std::error_code error;
  const auto built = std::filesystem::last_write_time(test.command.front(), error);
  if (error) return nullptr;
  for (const EarlierRecord& e : earlier) {
    if (test_name(e.record, track) != test.name || e.record.status != "TODO") continue;
    if (e.written > built) return &e.record;
    if (track == "exercise" && e.record.step > 0 && steps.of(e.record.lesson).count(e.record.step) > 0) return &e.record;
  }
  return nullptr;
}

}  // namespace

std::vector<EarlierRecord> earlier_records(const std::filesystem::path& dir, const std::vector<std::string>& lessons) {
  std::vector<EarlierRecord> earlier;
  for (const Record& r : load_records(dir)) {
    if (std::find(lessons.begin(), lessons.end(), r.lesson) == lessons.end()) continue;
    std::error_code error;
    const auto written = std::filesystem::last_write_time(record_file(dir, r.lesson, r.check), error);
    if (!error) earlier.push_back({r, written});
  }
  return earlier;
}

std::vector<std::string> program_command(const std::vector<std::string>& ctest_command) {
  const std::string script = "LaunchTest.cmake";
  const bool launched = !ctest_command.empty() && ctest_command.back().size() >= script.size() &&
                        ctest_command.back().compare(ctest_command.back().size() - script.size(), script.size(), script) == 0;
  if (!launched) return ctest_command;
  std::map<std::string, std::string> defined;  // -D NAME=VALUE or -DNAME=VALUE
  for (std::size_t i = 1; i < ctest_command.size(); ++i) {
    std::string definition;
    if (ctest_command[i] == "-D" && i + 1 < ctest_command.size()) definition = ctest_command[++i];
    else if (ctest_command[i].rfind("-D", 0) == 0) definition = ctest_command[i].substr(2);
    const std::size_t equals = definition.find('=');
    if (equals != std::string::npos) defined[definition.substr(0, equals)] = definition.substr(equals + 1);
  }
  if (defined["TEST_EXECUTABLE"].empty() || defined["TEST_FILTER"].empty()) return ctest_command;
  std::vector<std::string> command = split_list(defined["TEST_EXECUTOR"]);
  command.push_back(defined["TEST_EXECUTABLE"]);
  command.push_back(Test::kFilter + defined["TEST_FILTER"]);
  command.push_back("--gtest_also_run_disabled_tests");
  for (const std::string& arg : split_list(defined["TEST_EXTRA_ARGS"])) command.push_back(arg);
  return command;
}

int run_checks(const Course& course, const std::string& track, const std::vector<std::string>& lessons,
               const std::vector<std::string>& skip, const Progress& progress,
               const std::vector<EarlierRecord>& earlier) {
  if (lessons.empty()) return 0;
  std::vector<Test> tests;
  int kept = 0;
  StepsLeft steps(course);
  for (Test& t : list_tests(course, track, lessons, skip)) {
    if (const Record* todo = still_todo(t, track, earlier, steps)) {
      write_record(course.results_dir(track), *todo);
      ++kept;
    } else {
      tests.push_back(std::move(t));
    }
  }
  Runner runner(course, track, static_cast<int>(tests.size()), progress);

  // A program's GoogleTest checks in one process (its sanitizer checks start processes of their
  // own anyway); the programs side by side.
  std::map<std::string, SharedRun> shared;
  for (const Test& t : tests) {
    if (t.gtest_check().empty() || t.labelled("sanitizer")) continue;
    std::string key = t.dir;
    const std::size_t filter = t.filter_at();
    for (std::size_t i = 0; i < t.command.size(); ++i) key += "\n" + (i == filter ? std::string() : t.command[i]);
    for (const std::string& setting : t.env) key += "\n" + setting;
    shared[key].checks.push_back(&t);
  }
  const std::map<const Test*, double> expected = expected_seconds(tests, track, earlier);
  std::vector<SharedRun> runs = split_for_jobs(shared, expected, Runner::jobs(), holding_the_gpu_alone(tests, track, earlier));
  // Longest first, so that the longest does not start last and end the run alone.
  const auto longest_first = [&](std::vector<const Test*>& list) {
    std::stable_sort(list.begin(), list.end(), [&](const Test* a, const Test* b) { return expected.at(a) > expected.at(b); });
  };
  // The checks that are no program's GoogleTest checks (the sanitizer checks, anything else) run
  // in processes of their own beside the shared runs, but a sanitizer check of an exercise whose
  // code still has a STEPWISE_TODO waits for them: when they all say TODO, it says TODO without
  // running.
  const auto may_be_todo = [&](const Test& t) {
    return track == "exercise" && !steps.of(t.name.substr(0, t.name.find('/'))).empty();
  };
  std::vector<const Test*> beside, after;
  for (const Test& t : tests) {
    if (!t.gtest_check().empty() && !t.labelled("sanitizer")) continue;
    (t.labelled("sanitizer") && may_be_todo(t) ? after : beside).push_back(&t);
  }
  longest_first(beside);
  std::string unshared;  // a check that is no sanitizer's and no program's GoogleTest check: its command
  for (const Test* t : beside)
    if (unshared.empty() && !t->labelled("sanitizer"))
      for (const std::string& arg : t->command) unshared += (unshared.empty() ? ", e.g. " : " ") + arg;
  log_event(std::to_string(tests.size()) + " check(s) to run: " + std::to_string(runs.size()) + " shared process(es) for " +
            std::to_string(shared.size()) + " program(s), " + std::to_string(beside.size()) + " in processes of their own beside them" +
            unshared);
  // The processes of checks that hold the GPU alone run first, with none of the others beside
  // them (two at a time, below): their checks would wait for each other anyway, and beside the
  // other processes each of them waits for a moment when no other check holds the GPU (a first
  // speed process took 39 s so, against 10 s alone). Then the other processes side by side, and
  // the checks in processes of their own (compute-sanitizer's runs, each sharing the GPU for its
  // whole run) beside them. A lesson with steps still to write most likely stops at a TODO in a
  // moment: its process runs with the others.
  std::vector<SharedRun*> alone_queue, queue;  // each longest first (split_for_jobs' order)
  for (SharedRun& run : runs) (run.alone && !may_be_todo(*run.checks.front()) ? alone_queue : queue).push_back(&run);
  // Only these start CUDA before their first check: a process that most likely stops at a TODO
  // (a speed process of a lesson with steps to write) would start a context it never uses.
  for (SharedRun* run : alone_queue) run->start_cuda_early = true;
  // The checks a process with one work queue did not run, from one that times its work on (a
  // first run, whose records do not yet say which checks time their work): right after it, in one
  // process with CUDA's default queues, as the processes that hold the GPU alone have.
  std::deque<SharedRun> again;  // a deque: its elements stay where they are as it grows
  std::mutex again_mutex;
  const auto run_again = [&](SharedRun& ended) {
    SharedRun left;
    left.alone = true;
    const std::vector<Record> records = load_records(course.results_dir(track));
    for (const Test* t : ended.checks) {
      if (has_record(records, t->name, track)) continue;
      left.checks.push_back(t);
      left.expected += expected.at(t);
    }
    if (left.checks.empty()) return;
    SharedRun* run = nullptr;
    {
      std::lock_guard<std::mutex> lock(again_mutex);
      run = &again.emplace_back(std::move(left));
    }
    runner.run_shared(*run);
  };
  // `list`'s processes, `at_once` at a time, each as soon as one before it ends.
  const auto run_all = [&](const std::vector<SharedRun*>& list, int at_once) {
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> workers;
    for (int w = 0; w < std::min<int>(at_once, static_cast<int>(list.size())); ++w)
      workers.emplace_back([&] {
        for (std::size_t i = next++; i < list.size(); i = next++) {
          runner.run_shared(*list[i]);
          if (list[i]->left_one_work_queue) run_again(*list[i]);
        }
      });
    for (std::thread& worker : workers) worker.join();
  };
  // Two at a time: while one runs its checks, holding the GPU alone, the next starts CUDA (about
  // 0.2 s of the driver's, which starts one context at a time, and more of the process's own:
  // STEPWISE_START_CUDA_EARLY, run_shared) and waits for the lock at its first check.
  run_all(alone_queue, 2);
  std::thread alongside([&] { runner.run_each_alone(beside, true); });
  run_all(queue, std::max(1, Runner::jobs() - 1));  // one worker fewer: the checks in processes of their own
  alongside.join();

  // What did not end with a record of its own (a crash, a CUDA error that ended the process, a
  // check after those) and the sanitizer checks that waited: one process each.
  const std::vector<Record> records = load_records(course.results_dir(track));
  std::vector<const Test*> rest;
  std::set<const Test*> seen;  // a check of a process that ran again is in both
  std::vector<const SharedRun*> every_run;
  for (const SharedRun& run : again) every_run.push_back(&run);
  for (const SharedRun& run : runs) every_run.push_back(&run);
  for (const SharedRun* run : every_run) {
    for (const Test* t : run->checks) {
      if (has_record(records, t->name, track) || !seen.insert(t).second) continue;
      if (t->name == run->killed_in) {  // not again: a check that never ends would cost the limit twice
        write_stopped(course, track, t->name, "Timeout");
        runner.step(t->name, true);
        continue;
      }
      rest.push_back(t);
    }
  }
  for (const Test* t : after) {
    if (write_todo_if_all_todo(course, track, *t, tests, records)) {
      runner.step(t->name, true);
      continue;
    }
    rest.push_back(t);
  }
  longest_first(rest);
  runner.run_each_alone(rest, false);  // among them, checks that time their work
  return kept + runner.done();
}

}  // namespace runner
