#pragma once
// One result record per check: the grader's summary table is printed from these files.
// A check states its figure with note_figure(); the recorder (installed by the grader's main)
// adds the status, the first failure message, the seed and the command that re-runs the check.
#include <gtest/gtest.h>

#include <string>

namespace grader {

// A check's name as records and filters spell it: "Suite.Test".
std::string check_name(const testing::TestInfo& test);

// Sets the "measured" and "required" columns of the current check's record. When a check
// notes several figures (e.g. one per size), the one with the largest `badness` is kept.
void note_figure(double badness, const std::string& measured, const std::string& required);

// Adds the numbers of a speed check to its record: the figure, its minimum (scaled), the unit
// ("x copy bandwidth"), and the requirement key, so a gradebook or a plot can be made from them.
// The speed fills the "measured" and "required" columns: an accuracy figure noted before or
// after it (the timed output is checked) shows instead only when values were wrong.
void note_speed(const std::string& key, double figure, double minimum, const std::string& unit,
                const std::string& measured, const std::string& required);

// Marks the running check's SKIP as "this GPU has too little memory for it" (record field
// gpu_too_small): the report counts such a lesson done on this GPU, saying what was not run.
void note_gpu_too_small();

// The "measured" column of the running check so far, and whether note_gpu_too_small() was
// called in it (the self-tests read them).
std::string noted_measured();
bool noted_gpu_too_small();

// Where records go (build/results/<track>, or STEPWISE_RESULTS_DIR when set), and the file name
// of a check's record.
std::string results_dir();
std::string record_path(const std::string& check);

// The grader's own explanation in a GoogleTest failure message, without GoogleTest's framing
// ("Value of: ...", "Expected: ...").
std::string explanation(const std::string& gtest_message);

}  // namespace grader
