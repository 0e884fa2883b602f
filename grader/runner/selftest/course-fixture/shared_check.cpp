// A stand-in for a GoogleTest program whose checks the runner runs in one process
// (--gtest_filter=A:B:C): it prints GoogleTest's start and end lines and writes each check's
// record, noting in "measured" how many checks its process had run, and whether the runner gave
// it one hardware work queue (CUDA_DEVICE_MAX_CONNECTIONS=1). A check whose name ends in
// "Aborts" crashes and one ending in "Forever" never ends, in any process; one ending in "Measures"
// times its work, so it ends a process with one work queue before it starts, as the harness's
// checks do (grader/work_queue.h), and its record says it held the GPU alone; one ending in
// "Holds" held it alone for its memory only; the others pass.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

#include "grader/work_queue.h"

int main(int argc, char** argv) {
  const std::string filter = "--gtest_filter=";
  if (argc < 2 || std::string(argv[1]).rfind(filter, 0) != 0) return 2;
  std::istringstream checks(std::string(argv[1]).substr(filter.size()));
  std::string check;
  int ran = 0;
  const char* queues = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  const std::string one_queue = queues != nullptr && std::string(queues) == "1" ? ", one work queue" : "";
  while (std::getline(checks, check, ':')) {
    std::printf("[ RUN      ] %s\n", check.c_str());
    std::fflush(stdout);
    ++ran;
    auto ends_in = [&](const std::string& end) {
      return check.size() >= end.size() && check.compare(check.size() - end.size(), end.size(), end) == 0;
    };
    if (ends_in("Aborts")) std::abort();
    if (ends_in("Forever")) std::this_thread::sleep_for(std::chrono::hours(1));
    const char* one_queue_run = std::getenv(grader::kOneWorkQueueVariable);
    if (ends_in("Measures") && one_queue_run != nullptr && std::string(one_queue_run) == "1") {
      std::printf("[ stepwise ] %s %s: it and the checks after it run again\n", check.c_str(), grader::kLeftOneWorkQueue);
      std::fflush(stdout);
      std::_Exit(3);
    }
    std::filesystem::create_directories(RESULTS_DIR);
    std::ofstream(std::string(RESULTS_DIR "/") + LESSON + "__" + check + ".json")
        << "{\"lesson\": \"" LESSON "\", \"track\": \"exercise\", \"check\": \"" << check
        << "\", \"status\": \"PASS\", \"measured\": \"check " << ran << " of its process" << one_queue << "\", \"required\": \"\", "
        << "\"detail\": \"\", \"rerun\": \"\""
        << (ends_in("Measures") || ends_in("Holds") ? ", \"held_gpu_alone\": true" : "")
        << (ends_in("Holds") ? ", \"held_gpu_alone_for_memory\": true" : "") << "}\n";
    std::printf("[       OK ] %s (0 ms)\n", check.c_str());
  }
  return 0;
}
