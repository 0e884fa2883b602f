#pragma once
// A student's manifest in the class build, <build>/students/<id>/manifest.json, written by
// grader/class/student/CMakeLists.txt when the class build is configured: per graded lesson
// whether it was sent, its test program and the files graded; every other file sent. The one
// reader of that file (class_grading.cpp, gradebook.cpp).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace runner {

struct StudentManifest {
  struct Lesson {
    bool sent = false;                 // "state": "sent" (at least one exercise file), else "missing"
    std::string target;                // sent: the class build's target of its test program
    std::filesystem::path program;     // sent: that program (absent when the lesson did not compile)
    std::vector<std::string> used;     // the student's exercise files graded (lessons/<NN-slug>/...)
    std::vector<std::string> not_sent; // the exercise files graded untouched in their place
  };
  std::string student;
  std::map<std::string, Lesson> lessons;  // the graded lessons, by slug
  std::vector<std::string> ignored;       // every other file the student sent
  std::filesystem::path results, scratch;

  // The entry of `slug`; a lesson the manifest does not name counts as not sent.
  const Lesson& lesson(const std::string& slug) const;
};

// Reads <student_folder>/manifest.json. Throws std::runtime_error naming the file when it is
// missing or not a manifest of this shape (cut short, or written by another version of the
// course): a student is never graded from part of one.
StudentManifest read_student_manifest(const std::filesystem::path& student_folder);

}  // namespace runner
