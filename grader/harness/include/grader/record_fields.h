#pragma once
// The keys of a check's result record: written by the test programs (grader/harness/src/results.cpp)
// and read and written by the runner (grader/runner/src/records.cpp), so they are spelled once, here.
namespace grader::record_field {

inline constexpr const char* lesson = "lesson";  // "03-mandelbrot"
inline constexpr const char* track = "track";    // exercise, solution, tuned, class/<id>
inline constexpr const char* check = "check";    // Suite.Test
inline constexpr const char* status = "status";  // PASS, FAIL, TODO or SKIP
inline constexpr const char* measured = "measured";
inline constexpr const char* required = "required";
inline constexpr const char* detail = "detail";
inline constexpr const char* rerun = "rerun";
// A speed check's numbers (grader::note_speed).
inline constexpr const char* figure = "figure";
inline constexpr const char* minimum = "minimum";
inline constexpr const char* unit = "unit";
inline constexpr const char* key = "key";  // its line in the requirements file
inline constexpr const char* seconds = "seconds";
inline constexpr const char* seed = "seed";
inline constexpr const char* gpu = "gpu";
// true on a SKIP because the check needs more device memory than this GPU has (grader::
// allocate_if_it_fits): no fault of the code, and no other GPU-less reason.
inline constexpr const char* gpu_too_small = "gpu_too_small";
// true when the check held the GPU alone (grader::this_check_held_the_gpu_alone): the runner
// starts it early next time.
inline constexpr const char* held_gpu_alone = "held_gpu_alone";
// true when it held the GPU alone for its device memory only and timed nothing (grader::
// hold_the_gpu_alone_for_its_memory): the runner gives its process one work queue next time
// (grader/work_queue.h) where no check beside it times its work.
inline constexpr const char* held_gpu_alone_for_memory = "held_gpu_alone_for_memory";

}  // namespace grader::record_field
