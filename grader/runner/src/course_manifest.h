#pragma once
// The course manifest, course.json at the top of the course: the one list of the lessons, in
// reading order. CMake reads it to build them (cmake/CourseManifest.cmake); the runner reads it
// here to hold the docs' lists of lessons to it (course_lint.h).
#include <filesystem>
#include <string>
#include <vector>

namespace runner {

struct ManifestLesson {
  std::string number;               // "03"
  std::string slug;                 // "mandelbrot"
  std::string title;                // "Mandelbrot"
  std::vector<std::string> tracks;  // exercise, solution[, tuned]
  std::string folder() const { return number + "-" + slug; }  // "03-mandelbrot"
};

// Throws std::runtime_error naming the file when it is missing or a lesson lacks a field.
std::vector<ManifestLesson> read_manifest(const std::filesystem::path& file);

}  // namespace runner
