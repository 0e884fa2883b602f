#include "class_grading.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "build_step.h"
#include "gradebook.h"
#include "process.h"
#include "records.h"
#include "student_manifest.h"

namespace runner {

namespace fs = std::filesystem;
using nlohmann::json;

std::string resource_spec(int gpus, int slots) {
  json list = json::array();
  for (int i = 0; i < gpus; ++i) list.push_back({{"id", std::to_string(i)}, {"slots", slots}});
  return json{{"version", {{"major", 1}, {"minor", 0}}}, {"local", json::array({{{"gpus", list}}})}}.dump(2) + "\n";
}

namespace {

struct Class {
  fs::path build;                      // the class build folder
  std::vector<std::string> students, lessons, refused;
};

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

// Runs a command, its output going to `log` only. Returns its exit status.
int run_logged(const std::vector<std::string>& args, const fs::path& log) {
  fs::create_directories(log.parent_path());
  std::ofstream file(log, std::ios::app);
  file << "$ " << shell_command(args) << "\n";
  return run_lines(args, [&](const std::string& line) { file << line << "\n"; });
}

std::string tail(const fs::path& log, std::size_t lines) {
  std::ifstream in(log);
  std::vector<std::string> all;
  for (std::string line; std::getline(in, line);) all.push_back(line);
  std::string out;
  for (std::size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) out += all[i] + "\n";
  return out;
}

Class load_class(const fs::path& build) {
  std::ifstream in(build / "class.json");
  const json value = json::parse(in, nullptr, false);
  if (value.is_discarded() || !value.is_object())
    throw std::runtime_error("no class build in " + build.string() + ": run the prepare step first");
  Class c;
  c.build = build;
  c.students = value.value("students", std::vector<std::string>{});
  c.lessons = value.value("lessons", std::vector<std::string>{});
  c.refused = value.value("refused", std::vector<std::string>{});
  return c;
}

// The cores this run may use: a Slurm job's own (SLURM_CPUS_PER_TASK), else the machine's.
unsigned cores() {
  if (const char* slurm = std::getenv("SLURM_CPUS_PER_TASK")) {
    const unsigned n = static_cast<unsigned>(std::strtoul(slurm, nullptr, 10));
    if (n > 0) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

int gpus_present() {
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
    const std::string list = visible;
    if (list.empty() || list == "NoDevFiles" || list == "-1") return 0;
    return static_cast<int>(std::count(list.begin(), list.end(), ',')) + 1;
  }
  int count = 0;
  run_lines({"nvidia-smi", "--query-gpu=index", "--format=csv,noheader"}, [&](const std::string& line) {
    if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0]))) ++count;
  });
  return count;
}

std::string generator_of(const fs::path& build) {
  std::ifstream cache(build / "CMakeCache.txt");
  for (std::string line; std::getline(cache, line);)
    if (line.rfind("CMAKE_GENERATOR:INTERNAL=", 0) == 0) return line.substr(25);
  return "";
}

// The compiler's first error and the lines after it, for the report.
std::string first_error_lines(const std::string& log, const std::string& first_error, const std::string& prefix) {
  std::string line = first_error.substr(first_error.find(": error: ") == std::string::npos ? 0 : first_error.find(": error: ") + 9);
  std::size_t at = log.find(line);
  if (line.empty() || at == std::string::npos) return first_error;
  at = log.rfind('\n', at);
  std::istringstream rest(log.substr(at == std::string::npos ? 0 : at + 1));
  std::string out;
  int kept = 0;
  for (std::string next; kept < 8 && std::getline(rest, next); ++kept) {
    if (next.rfind("make", 0) == 0 || next.rfind("gmake", 0) == 0 || next.rfind("ninja", 0) == 0) break;
    for (std::size_t p = next.find(prefix); !prefix.empty() && p != std::string::npos; p = next.find(prefix)) next.erase(p, prefix.size());
    out += (out.empty() ? "" : "\n") + next;
  }
  out.erase(out.find_last_not_of("\n ") + 1);
  return out;
}

void prepare(const Course& course, const ClassOptions& o, const std::vector<std::string>& lessons) {
  const fs::path build = o.out / "build", logs = o.out / "logs";
  fs::create_directories(logs);
  // The course's own test programs of these lessons: the class links their checks, and lists
  // the checks from them.
  std::vector<std::string> targets;
  for (const std::string& slug : lessons) targets.push_back("lesson" + slug.substr(0, 2) + "-tests");
  std::cout << "building the course's checks of " << join(lessons, ", ") << " in " << display_path(course.build_dir) << "\n" << std::flush;
  const BuildResult course_build = build_targets(course, targets);
  if (!course_build.ok)
    throw std::runtime_error("the course build did not build " + join(targets, " ") + ": " + course_build.first_error);

  std::vector<std::string> environment;
  if (!o.requirements.empty()) environment.push_back("STEPWISE_REQUIREMENTS=" + fs::absolute(o.requirements).string());
  if (!o.speed_scale.empty()) environment.push_back("STEPWISE_SPEED_SCALE=" + o.speed_scale);
  std::vector<std::string> configure{course.cmake, "-S", (course.source_dir / "grader" / "class").string(),
                                     "-B", build.string(),
                                     "-DSTEPWISE_COURSE_BUILD=" + fs::absolute(course.build_dir).string(),
                                     "-DSTEPWISE_CLASS_DIR=" + fs::absolute(o.class_dir).string(),
                                     "-DSTEPWISE_CLASS_LESSONS=" + join(lessons, ";"),
                                     "-DSTEPWISE_CLASS_RESULTS=" + fs::absolute(o.out / "results").string(),
                                     "-DSTEPWISE_CHECK_TIME_LIMIT=" + std::to_string(o.time_limit),
                                     "-DSTEPWISE_CHECKS_PER_GPU=" + std::to_string(o.checks_per_gpu),
                                     "-DSTEPWISE_CLASS_ENVIRONMENT=" + join(environment, ";")};
  if (!o.architectures.empty()) configure.push_back("-DCMAKE_CUDA_ARCHITECTURES=" + o.architectures);
  std::cout << "configuring the class build " << display_path(build) << "\n" << std::flush;
  if (run_logged(configure, logs / "configure.log") != 0)
    throw std::runtime_error("the class build did not configure (" + display_path(logs / "configure.log") + "):\n" +
                             tail(logs / "configure.log", 15));

  // Everything at once, keeping going past what does not compile.
  std::vector<std::string> make{course.cmake, "--build", build.string(), "--parallel", std::to_string(o.jobs > 0 ? o.jobs : cores()), "--"};
  make.push_back(generator_of(build).find("Ninja") != std::string::npos ? "-k0" : "-k");
  std::cout << "building every student's lessons (" << display_path(logs / "build.log") << ")\n" << std::flush;
  fs::remove(logs / "build.log");
  run_logged(make, logs / "build.log");

  // Each lesson that did not build, again on its own: its log names its first error.
  const Class c = load_class(build);
  for (const std::string& student : c.students) {
    const fs::path folder = build / "students" / student;
    const fs::path results = o.out / "results" / student;
    for (const auto& [slug, entry] : read_student_manifest(folder).lessons) {
      if (!entry.sent) continue;
      const fs::path build_record = record_file(results, slug, kBuildCheck);
      if (fs::exists(entry.program)) {
        fs::remove(build_record);
        continue;
      }
      const fs::path log = logs / student / (slug + ".build.log");
      fs::remove(log);
      run_logged({course.cmake, "--build", build.string(), "--target", entry.target}, log);
      std::ifstream text(log);
      std::stringstream buffer;
      buffer << text.rdbuf();
      Record r;
      r.lesson = slug;
      r.track = "class/" + student;
      r.check = kBuildCheck;
      r.status = "FAIL";
      // The compiler names the staged copy (<out>/build/students/<id>/lessons/...): the report
      // names the student's file as sent, <id>/lessons/..., never a path that reads as the
      // course's own lessons/... (with --out inside the course, relative or not).
      const fs::path students = fs::absolute(folder).lexically_normal().parent_path();
      const std::string prefix = students.string() + "/";
      find_first_error(buffer.str(), students.string(), r.measured, r.detail);
      r.detail = r.detail.empty() ? "the build failed: see " + display_path(log) : first_error_lines(buffer.str(), r.detail, prefix);
      if (r.measured.empty()) r.measured = "the build";
      r.rerun = shell_command({"cmake", "--build", build.string(), "--target", entry.target});
      write_record(results, r);
    }
  }
}

// A student is graded when every check of every lesson that built has a record newer than the
// lesson's program, and every lesson that did not build has its Build record.
bool complete(const Class& c, const StudentManifest& manifest, const fs::path& results, const std::vector<std::string>& skip) {
  std::error_code error;
  for (const auto& [slug, entry] : manifest.lessons) {
    if (!entry.sent) continue;
    const fs::path& program = entry.program;
    if (!fs::exists(program, error)) {
      if (!fs::exists(record_file(results, slug, kBuildCheck), error)) return false;
      continue;
    }
    const auto built = fs::last_write_time(program, error);
    std::ifstream list(c.build / "checks" / (slug + ".txt"));
    for (std::string line; std::getline(list, line);) {
      // "<Suite.Test> <kind> <labels, comma-separated>" (stepwise list-checks); skipped as CTest's
      // -LE below skips: when one of its labels is one of `skip`.
      std::istringstream fields(line);
      std::string check, kind, label;
      fields >> check >> kind;
      bool skipped = false;
      while (std::getline(fields >> std::ws, label, ','))
        skipped = skipped || std::find(skip.begin(), skip.end(), label) != skip.end();
      const fs::path record = record_file(results, slug, check);
      if (!skipped && (!fs::exists(record, error) || fs::last_write_time(record, error) < built)) return false;
    }
  }
  return true;
}

// Why a student has no check to run (every lesson not sent or not compiling), e.g.
// "01-vector-add does not compile (its Build record says why)"; "" when some lesson was built.
std::string nothing_to_check(const StudentManifest& manifest) {
  std::vector<std::string> why;
  std::error_code error;
  for (const auto& [slug, entry] : manifest.lessons) {
    if (!entry.sent) {
      why.push_back(slug + " not sent");
    } else if (!fs::exists(entry.program, error)) {
      why.push_back(slug + " does not compile");
    } else {
      return "";
    }
  }
  return why.empty() ? "" : join(why, ", ") + " (the report says more)";
}

void check(const Course& course, const ClassOptions& o) {
  const Class c = load_class(o.out / "build");
  std::vector<std::string> chosen = o.students;
  if (o.student_index >= 0) {
    if (o.student_index >= static_cast<int>(c.students.size()))
      throw std::runtime_error("no student number " + std::to_string(o.student_index) + ": the class has " +
                               std::to_string(c.students.size()));
    chosen = {c.students[static_cast<std::size_t>(o.student_index)]};
  }
  if (chosen.empty()) chosen = c.students;
  std::vector<std::string> todo;
  std::map<std::string, StudentManifest> manifests;  // of the students in `todo`
  for (const std::string& student : chosen) {
    if (std::find(c.students.begin(), c.students.end(), student) == c.students.end())
      throw std::runtime_error("no student '" + student + "' in the class build");
    const StudentManifest manifest = read_student_manifest(c.build / "students" / student);
    const std::string nothing = nothing_to_check(manifest);
    if (!nothing.empty()) {
      std::cout << student << ": no checks to run: " << nothing << "\n";
      continue;
    }
    if (!o.fresh && complete(c, manifest, o.out / "results" / student, o.skip)) {
      std::cout << student << ": already graded (--fresh grades again)\n";
      continue;
    }
    todo.push_back(student);
    manifests.emplace(student, manifest);
  }
  if (todo.empty()) return;

  // One student: CTest in that student's folder (Slurm array tasks share nothing); several: the
  // whole class, side by side.
  std::vector<std::string> args{course.ctest, "--test-dir", (c.build / (todo.size() == 1 ? "students/" + todo.front() : "")).string(),
                                "-L", "^class$"};
  if (todo.size() < c.students.size()) args.insert(args.end(), {"-L", "^student-(" + join(todo, "|") + ")$"});
  if (!o.skip.empty()) args.insert(args.end(), {"-LE", "^(" + join(o.skip, "|") + ")$"});
  const int gpus = gpus_present();
  const int jobs = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(cores(), 2u));
  args.insert(args.end(), {"--parallel", std::to_string(jobs)});
  const fs::path logs = o.out / "logs";
  fs::create_directories(logs);
  if (gpus > 0) {
    const fs::path spec = logs / ("gpus-" + (todo.size() == 1 ? todo.front() : std::string("class")) + ".json");
    std::ofstream(spec) << resource_spec(gpus, o.checks_per_gpu);
    args.insert(args.end(), {"--resource-spec-file", fs::absolute(spec).string()});  // CTest reads it from the test folder
  }
  for (const std::string& student : todo) {
    std::error_code error;
    // Records older than the lesson's program are of an earlier submission.
    for (const auto& [slug, entry] : manifests.at(student).lessons) {
      const fs::path& program = entry.program;
      if (!entry.sent || !fs::exists(program, error)) continue;
      for (const Record& r : load_records(o.out / "results" / student)) {
        const fs::path file = record_file(o.out / "results" / student, r.lesson, r.check);
        if (r.lesson == slug && fs::last_write_time(file, error) < fs::last_write_time(program, error)) fs::remove(file, error);
      }
    }
  }
  std::cout << "checking " << join(todo, ", ") << " (" << jobs << " at once, " << gpus << " GPU" << (gpus == 1 ? "" : "s")
            << ")\n" << std::flush;
  const fs::path log = logs / ("checks-" + (todo.size() == 1 ? todo.front() : std::string("class")) + ".log");
  fs::remove(log);
  run_logged(args, log);
}

}  // namespace

int grade_class(const Course& course, const ClassOptions& o) {
  std::vector<std::string> lessons;
  for (const std::string& name : o.lessons) {
    const Lesson* lesson = course.find(name);
    if (lesson == nullptr) throw std::runtime_error("no lesson '" + name + "' in this course (try 00 or 03-mandelbrot)");
    lessons.push_back(lesson->slug);
  }
  if (lessons.empty())
    for (const Lesson& lesson : course.lessons) lessons.push_back(lesson.slug);
  const bool all = o.step == "all";
  if (all || o.step == "prepare") {
    if (!fs::is_directory(o.class_dir)) throw std::runtime_error("no class folder " + o.class_dir.string());
    prepare(course, o, lessons);
  }
  if (all || o.step == "check") check(course, o);
  if (all || o.step == "merge") {
    const Class c = load_class(o.out / "build");
    std::vector<StudentGrades> grades;
    for (const std::string& student : c.students)
      grades.push_back(student_grades(c.build, o.out / "results" / student, student, c.lessons));
    write_gradebook(o.out, c.lessons, c.build, grades);
    std::cout << "gradebook: " << display_path(o.out / "gradebook.csv") << ", " << display_path(o.out / "gradebook.json")
              << ", reports in " << display_path(o.out / "reports") << "\n";
    for (const StudentGrades& s : grades) {
      std::cout << "  " << s.student << ": " << s.passed << " of " << s.of << " pass";
      for (const StudentLesson& lesson : s.lessons)
        if (lesson.state != "graded") std::cout << "; " << lesson.slug << " " << lesson.state;
      std::cout << "\n";
    }
    for (const std::string& refused : c.refused)
      std::cout << "  folder '" << refused << "' was not graded: a student's folder name may hold only letters, digits, '.', '_' and '-'\n";
  }
  return 0;
}

}  // namespace runner
