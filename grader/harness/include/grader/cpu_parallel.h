#pragma once
// The grader's CPU references on several threads: a reference that takes seconds on one thread
// (lesson 06's double-precision product of 1600 x 1600 matrices) would otherwise set how long a
// whole lesson takes to grade. The lessons' own CPU code stays on one thread: its time is the
// seed's "one CPU thread" that the demos compare against.
#include <algorithm>
#include <atomic>
#include <chrono>
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

// Calls work(begin, end) on disjoint ranges that together cover [0, count) and returns when all
// are done: on as many threads as cores are idle when it starts (idle_cores()), and more as cores
// fall idle while it runs (other processes ending: looked at every 50 ms, between ranges), up to
// one per core. A run of the whole course ends with a few processes whose references started on
// one thread while every core was busy, and then had the machine to themselves. Ranges of at
// least `least` items (a thread costs tens of microseconds to start), about a quarter of an even
// share per core, so that a thread started later finds some. `work` must only write what its
// range owns.
inline void in_parallel(std::size_t count, const std::function<void(std::size_t begin, std::size_t end)>& work,
                        std::size_t least = 1) {
  const std::size_t most = count / std::max<std::size_t>(least, 1);
  if (most <= 1) return work(0, count);  // too little to share (and /proc/loadavg not read)
  const std::size_t cores = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
  const std::size_t ranges = std::min(most, 4 * cores);
  const std::size_t per_range = (count + ranges - 1) / ranges;
  std::atomic<std::size_t> next{0};
  const auto take_one = [&] {  // false when every range is taken
    const std::size_t begin = next.fetch_add(per_range);
    if (begin >= count) return false;
    work(begin, std::min(count, begin + per_range));
    return true;
  };
  std::vector<std::thread> helpers;
  const auto add_helpers = [&](std::size_t wanted) {
    for (; wanted > 0 && helpers.size() + 1 < std::min(cores, ranges); --wanted)
      helpers.emplace_back([&] { while (take_one()) {} });
  };
  add_helpers(idle_cores() - 1);  // this thread is one of them
  auto looked = std::chrono::steady_clock::now();
  while (take_one()) {
    if (std::chrono::steady_clock::now() - looked < std::chrono::milliseconds(50)) continue;
    add_helpers(idle_cores() - 1);  // /proc/loadavg counts this call's running threads too
    looked = std::chrono::steady_clock::now();
  }
  for (std::thread& t : helpers) t.join();
}

}  // namespace grader
