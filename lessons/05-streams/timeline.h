#pragma once
// Given, not an exercise: when each stage of each chunk of the pipeline ran on the GPU, from
// CUDA events recorded around it in its stream (as lesson 04's PartTimer marks the parts of one
// call). In the pipeline, queue a stage through on_timeline:
//
//   on_timeline(timeline, stream_index, Stage::copy_in, chunk, stream, [&] {
//     CUDA_CHECK(cudaMemcpyAsync(d_in + first, in + first, bytes, cudaMemcpyHostToDevice, stream));
//   });
//
// With timeline == nullptr (the grader's timed runs) it only queues the work.
#include <cuda_runtime.h>

#include <deque>
#include <vector>

#include "stepwise/event_timer.h"

enum class Stage { copy_in, kernel, copy_out };

// One stage of one chunk: on which row (stream) it ran, and when, in ms after the timeline began.
struct Segment {
  int row = 0;
  Stage stage = Stage::copy_in;
  int chunk = 0;
  float start_ms = 0, end_ms = 0;
};

class Timeline {
 public:
  Timeline() { origin_.record(); }  // time 0: when the GPU reaches this mark

  // Queues `queue` (work on `stream`) between two marks on that stream.
  template <typename Queue>
  void mark(int row, Stage stage, int chunk, cudaStream_t stream, Queue&& queue) {
    stepwise::GpuEvent& begin = events_.emplace_back();
    begin.record(stream);
    queue();
    stepwise::GpuEvent& end = events_.emplace_back();
    end.record(stream);
    marks_.push_back({row, stage, chunk, &begin, &end});
  }

  // Every marked stage, in the order they were queued; waits for the GPU to reach every mark.
  std::vector<Segment> segments() const {
    std::vector<Segment> all;
    for (const Mark& m : marks_)
      all.push_back({m.row, m.stage, m.chunk, stepwise::elapsed_ms(origin_, *m.begin),
                     stepwise::elapsed_ms(origin_, *m.end)});
    return all;
  }

 private:
  struct Mark {
    int row;
    Stage stage;
    int chunk;
    const stepwise::GpuEvent* begin;
    const stepwise::GpuEvent* end;
  };
  stepwise::GpuEvent origin_;
  std::deque<stepwise::GpuEvent> events_;  // a deque: events cannot move, and it never moves them
  std::vector<Mark> marks_;
};

// Queues one stage: between marks on `timeline` when there is one, else just the work.
template <typename Queue>
void on_timeline(Timeline* timeline, int row, Stage stage, int chunk, cudaStream_t stream, Queue&& queue) {
  if (timeline != nullptr)
    timeline->mark(row, stage, chunk, stream, queue);
  else
    queue();
}
