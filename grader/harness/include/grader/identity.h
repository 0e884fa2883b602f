#pragma once
// Which lesson and track (exercise, solution, or a broken submission) this test program grades.
// Each test program compiles identity.cpp with its own STEPWISE_LESSON, STEPWISE_TRACK and
// STEPWISE_SANITIZERS (see stepwise_add_test_program in cmake/AddLesson.cmake).
namespace grader {
const char* lesson();      // e.g. "01-vector-add"
const char* track();       // "exercise", "solution", "broken-no_bounds_check", ...
const char* sanitizers();  // the compute-sanitizer tools graded, e.g. "memcheck,racecheck"; "" for none
}  // namespace grader
