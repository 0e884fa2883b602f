#pragma once
// The grader's CPU references on several threads: a reference that takes seconds on one thread
// (lesson 06's double-precision product of 1600 x 1600 matrices) would otherwise set how long a
// whole lesson takes to grade. The lessons' own CPU code stays on one thread: its time is the
// seed's "one CPU thread" that the demos compare against.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace grader {

// Calls work(begin, end) on disjoint ranges that together cover [0, count), each on a thread of its
// own (up to the machine's cores, at most 16), and returns when all are done. `work` must only
// write what its range owns.
inline void in_parallel(std::size_t count, const std::function<void(std::size_t begin, std::size_t end)>& work) {
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
  const std::size_t parts = std::max<std::size_t>(1, std::min(threads, count));
  const std::size_t per_part = (count + parts - 1) / parts;
  std::vector<std::thread> running;
  for (std::size_t begin = per_part; begin < count; begin += per_part)
    running.emplace_back(work, begin, std::min(count, begin + per_part));
  work(0, std::min(count, per_part));  // the first range on this thread
  for (std::thread& t : running) t.join();
}

}  // namespace grader
