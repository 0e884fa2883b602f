#pragma once
// The grader's CPU references on several threads: a reference that takes seconds on one thread
// (lesson 06's double-precision product of 1600 x 1600 matrices) would otherwise set how long a
// whole lesson takes to grade. The lessons' own CPU code stays on one thread: its time is the
// seed's "one CPU thread" that the demos compare against.
#include <algorithm>
#include <cstddef>
#include <fstream>
#include <functional>
#include <thread>
#include <vector>

namespace grader {

// The cores (at most 16) that no other thread is using now, by /proc/loadavg's count of runnable
// threads ("3/512": 3, this one among them), or all of them where it cannot be read. Beside the
// grader's other processes, which keep every core busy in a run of the whole course, more threads
// would only take turns with theirs; alone (a lesson's own run, a check that holds the GPU alone)
// a reference gets the machine.
inline std::size_t idle_cores() {
  const long cores = std::clamp<long>(std::thread::hardware_concurrency(), 1, 16);
  std::ifstream loadavg("/proc/loadavg");
  double last_minute = 0, five = 0, fifteen = 0;
  long runnable = 0;
  if (!(loadavg >> last_minute >> five >> fifteen >> runnable)) return static_cast<std::size_t>(cores);
  return static_cast<std::size_t>(std::clamp<long>(cores - (runnable - 1), 1, cores));
}

// Calls work(begin, end) on disjoint ranges that together cover [0, count), each on a thread of its
// own (as many as idle_cores(), and no more than give each range `least` items: a thread costs tens
// of microseconds to start), and returns when all are done. `work` must only write what its range
// owns.
inline void in_parallel(std::size_t count, const std::function<void(std::size_t begin, std::size_t end)>& work,
                        std::size_t least = 1) {
  const std::size_t most = count / std::max<std::size_t>(least, 1);
  if (most <= 1) return work(0, count);  // too little to share (and /proc/loadavg not read)
  const std::size_t parts = std::min(most, idle_cores());
  const std::size_t per_part = (count + parts - 1) / parts;
  std::vector<std::thread> running;
  for (std::size_t begin = per_part; begin < count; begin += per_part)
    running.emplace_back(work, begin, std::min(count, begin + per_part));
  work(0, std::min(count, per_part));  // the first range on this thread
  for (std::thread& t : running) t.join();
}

}  // namespace grader
