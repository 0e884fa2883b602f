#pragma once
// A speed check's yardstick held to its own minimum. A figure that is a ratio to another step of
// the student's ("the pipeline over one stream") is flattered by a slow yardstick, so the step
// that is the yardstick has a speed check and a minimum of its own, and every check that divides
// by it refuses it below that minimum too, in its own measurements (a yardstick made slow only
// there would pass its own check):
//
//   grader::Yardstick yardstick("one stream", "05-streams/PipelineSpeed.OneStreamNearItsBound",
//                               "its bound", "a slow one-stream version flatters the pipeline's "
//                               "figure, so it counts only once step 2 is fast enough");
//   grader::expect_speed([&] {
//     ... one_stream_ms, bound_ms
//     yardstick.add(bound_ms / one_stream_ms, ms_digits(one_stream_ms), " ms; ...");
//     return ...;  // the check's own figure
//   });
//   EXPECT_TRUE(yardstick.fast_enough());
//
// A failure reads "one stream, this check's yardstick, ran at 0.5 x its bound (...), below its
// own minimum (>= 0.6 x ..., 05-streams/PipelineSpeed.OneStreamNearItsBound): a slow ...".
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <utility>

namespace grader {

class Yardstick {
 public:
  // `what`: the yardstick in the student's words ("the host-API pipeline"); `requirement_key`:
  // the check whose minimum it is held to ("<NN-slug>/<Suite>.<Test>"); `unit`: what its figure
  // is a multiple of ("copy bandwidth"); `consequence`: why a slow one fails this check too.
  Yardstick(std::string what, std::string requirement_key, std::string unit, std::string consequence)
      : what_(std::move(what)), key_(std::move(requirement_key)), unit_(std::move(unit)),
        consequence_(std::move(consequence)) {}

  // One measurement of the yardstick: its figure against its own requirement, and the details the
  // message gives in brackets, streamed as a GoogleTest message writes them (a double with all its
  // digits, as the figure). The highest figure (the nearest to passing) counts.
  template <typename... Details>
  void add(double figure, const Details&... details) {
    if (!(figure > figure_)) return;
    testing::Message text;
    (text << ... << details);
    figure_ = figure;
    details_ = text.GetString();
  }

  // Success when the highest figure added meets the requirement's minimum, else why it counts
  // against this check.
  testing::AssertionResult fast_enough() const;

 private:
  std::string what_, key_, unit_, consequence_;
  double figure_ = -std::numeric_limits<double>::infinity();
  std::string details_;
};

}  // namespace grader
