#pragma once
// The course as this build knows it: read from <build>/stepwise-course.json, made from the lessons
// of course.json with the targets that build them (grader/runner/Course.cmake: CMake gathers them,
// `stepwise write-json` writes the file when the runner is built).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace runner {

// The tracks a lesson is graded in: the student's exercise, the reference solution, and the tuned
// version beside it (cmake/AddLesson.cmake's stepwise_add_tuned; only some lessons have one).
inline const std::vector<std::string> kTracks{"exercise", "solution", "tuned"};

struct Lesson {
  std::string slug;                                        // "03-mandelbrot"
  std::map<std::string, std::vector<std::string>> built_by;  // track -> its target (lessonNN-programs[-track]: tests and demo)
  // The build folder that holds its checks and no other lesson's ("" if unknown): CTest lists one
  // lesson's checks there in a fraction of the time it takes over the whole build.
  std::filesystem::path tests_dir;
  const std::vector<std::string>& targets(const std::string& track) const {
    static const std::vector<std::string> none;
    const auto found = built_by.find(track);
    return found == built_by.end() ? none : found->second;
  }
  std::string number() const { return slug.substr(0, 2); }  // "03"
};

struct Course {
  std::filesystem::path source_dir, build_dir;
  std::string cmake = "cmake", ctest = "ctest";
  std::string ninja;  // the build tool where the generator is Ninja, else "": run without cmake --build
  std::vector<std::string> tools;  // built before the lessons (the doctor)
  std::vector<Lesson> lessons;     // in reading order
  // The target that builds every lesson's targets of a track ("" if none).
  std::map<std::string, std::string> lessons_targets;
  std::string lessons_target(const std::string& track) const {
    const auto found = lessons_targets.find(track);
    return found == lessons_targets.end() ? std::string() : found->second;
  }

  std::filesystem::path results_dir(const std::string& track) const { return build_dir / "results" / track; }
  std::filesystem::path lesson_dir(const Lesson& lesson) const { return source_dir / "lessons" / lesson.slug; }
  // The lessons graded in `track`, in reading order: those with targets of it (every lesson has an
  // exercise and a solution; a few a tuned version), or all where no lesson has targets (a course
  // file that names none).
  std::vector<const Lesson*> lessons_of(const std::string& track) const;
  // "3", "03", "03-mandelbrot" and "mandelbrot" all name lesson 03; nullptr if none does.
  const Lesson* find(const std::string& name) const;
};

// Reads the course file; relative paths in it are relative to the file's folder. Throws
// std::runtime_error with a fix when the file is missing or malformed.
Course load_course(const std::filesystem::path& file);

// The folder grading works in, as the student names it: "build" rather than /home/.../build
// when that is where they are.
std::string display_path(const std::filesystem::path& path);

}  // namespace runner
