#pragma once
// Grading a whole class (`stepwise class`): every student's exercise files of the chosen
// lessons, built in one class build (grader/class) against the course build, their checks run
// with CTest (side by side, one GPU share each), and the records merged into a gradebook.
// Steps, which a Slurm job array runs apart (grader/class/slurm/submit-class.sh):
//   prepare  build the course's test programs of the lessons, configure and build the class
//            (keep going past students whose code does not compile: their Build record says why)
//   check    run the checks of the students not yet graded (all, some by name, or the Nth)
//   merge    gradebook.csv, gradebook.json and reports/<id>.md in the output folder
#include <filesystem>
#include <string>
#include <vector>

#include "course.h"

namespace runner {

struct ClassOptions {
  std::filesystem::path class_dir;  // one folder per student: <id>/lessons/<NN-slug>/...
  std::filesystem::path out;        // build/, results/<id>/, logs/, gradebook.*, reports/
  std::vector<std::string> lessons; // as named on the command line (03, 03-mandelbrot...)
  std::string requirements;         // another requirements file
  std::string speed_scale;          // STEPWISE_SPEED_SCALE for every check
  int time_limit = 120;             // seconds per check
  int jobs = 0;                     // checks at once (0: the machine's cores)
  int checks_per_gpu = 4;           // GPU correctness checks sharing one GPU
  std::vector<std::string> skip;    // labels of checks not run (speed, sanitizer)
  std::vector<std::string> students;// only these (check step)
  int student_index = -1;           // only the Nth student, from 0 (a Slurm array task)
  bool fresh = false;               // check the chosen students again even if they are graded
  std::string step = "all";         // prepare, check, merge or all
  std::string architectures;        // CMAKE_CUDA_ARCHITECTURES of the class build, if not the course's
};

// Returns the exit status: 0 when the steps ran (whatever the students' results), 2 otherwise
// (errors are thrown as std::runtime_error with what to do).
int grade_class(const Course& course, const ClassOptions& options);

// The resource spec CTest reads (--resource-spec-file): `gpus` GPUs with `slots` shares each.
std::string resource_spec(int gpus, int slots);

}  // namespace runner
