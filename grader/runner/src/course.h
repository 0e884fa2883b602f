#pragma once
// The course as this build knows it: read from <build>/stepwise-course.json, which CMake writes
// from STEPWISE_LESSONS (grader/runner/Course.cmake).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace runner {

struct Lesson {
  std::string slug;                          // "03-mandelbrot"
  std::vector<std::string> exercise_targets; // what builds its exercise: tests and demo
  std::vector<std::string> solution_targets;
  const std::vector<std::string>& targets(const std::string& track) const {
    return track == "solution" ? solution_targets : exercise_targets;
  }
  std::string number() const { return slug.substr(0, 2); }  // "03"
};

struct Course {
  std::filesystem::path source_dir, build_dir;
  std::string cmake = "cmake", ctest = "ctest";
  std::vector<std::string> tools;  // built before the lessons (the doctor)
  std::vector<Lesson> lessons;     // in reading order
  // The target that builds every lesson's targets of a track ("" if none).
  std::string exercise_lessons_target, solution_lessons_target;
  const std::string& lessons_target(const std::string& track) const {
    return track == "solution" ? solution_lessons_target : exercise_lessons_target;
  }

  std::filesystem::path results_dir(const std::string& track) const { return build_dir / "results" / track; }
  std::filesystem::path lesson_dir(const Lesson& lesson) const { return source_dir / "lessons" / lesson.slug; }
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
