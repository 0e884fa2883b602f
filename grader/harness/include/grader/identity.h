#pragma once
// Which lesson and track (exercise, solution, or a broken submission) this test program grades.
// Each test program compiles identity.cpp with its own STEPWISE_LESSON and STEPWISE_TRACK.
namespace grader {
const char* lesson();  // e.g. "01-vector-add"
const char* track();   // "exercise", "solution", "broken-no-bounds-check", ...
}  // namespace grader
