#pragma once
// How an exercise says "this step is yours to write". Each unfinished function holds
//
//   STEPWISE_TODO(2);   // TODO(step 2): ...
//
// which throws stepwise::NotImplemented("not implemented yet: lessons/NN-slug/README.md step 2").
// The grader reports it as TODO and points at that step; delete the line when you write the step.
namespace stepwise {

// Throws stepwise::NotImplemented, declared in stepwise/not_implemented.h: only code that catches
// it needs that header (and <string>), not the exercise files that say TODO.
[[noreturn]] void not_implemented(const char* lesson_dir, int step);

}  // namespace stepwise

// STEPWISE_LESSON_DIR ("lessons/NN-slug") is defined by add_lesson() for the exercise's sources.
#define STEPWISE_TODO(step) ::stepwise::not_implemented(STEPWISE_LESSON_DIR, step)
