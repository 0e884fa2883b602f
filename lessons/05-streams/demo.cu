// Lesson 05 demo: copies from pageable and pinned memory, the work on one stream, and the
// pipeline, with an ASCII timeline of the pipeline's streams drawn from CUDA events.
//   lesson05-demo [--size N] [--chunks C] [--work W]
// Defaults: 32M floats (128 MB each way), 8 chunks, and the work per value chosen so that the
// kernel takes about as long as copying the data in.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "stepwise/buffers.h"
#include "stepwise/check.h"
#include "stepwise/demo.h"
#include "stepwise/host_timer.h"
#include "streams.h"
#include "transform.h"

namespace {

// The demo's steps 1 and 2 run on the default stream, so that they work before the guard of step
// 3 is written; the pipeline makes its own streams.
const cudaStream_t kStream = nullptr;

struct Options {
  int n = 32 << 20;
  int chunks = 8;
  int work = -1;  // -1: choose it so that the kernel takes as long as both copies at once
};

std::string help() {
  const Options o;
  return stepwise::help_text("usage: lesson05-demo [--size N] [--chunks C] [--work W]",
                             {{"--size N", "floats copied in and out, 1 to 268435456", std::to_string(o.n)},
                              {"--chunks C", "chunks of the pipeline, 1 to 4096", std::to_string(o.chunks)},
                              {"--work W", "work per value, 0 to 1000000",
                               "chosen so that the kernel takes as long as the copy in"}});
}

Options parse_options(int argc, char** argv) {
  Options o;
  stepwise::Flags flags(argc, argv, help());
  while (flags.next()) {
    if (flags.is("--size"))
      o.n = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--size", 1, 1 << 28));
    else if (flags.is("--chunks"))
      o.chunks = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--chunks", 1, 4096));
    else if (flags.is("--work"))
      o.work = static_cast<int>(stepwise::parse_integer(flags.values(1)[0], "--work", 0, 1000000));
    else
      flags.unknown();
  }
  return o;
}

// Two arrays of n floats on the GPU; say so now rather than fail half-way.
void require_device_memory(int n) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const double needed_mb = 2.0 * sizeof(float) * n / 1e6;
  if (needed_mb > 0.9 * free_bytes / 1e6)
    throw std::invalid_argument("--size " + std::to_string(n) + " needs " + std::to_string(static_cast<long>(needed_mb)) +
                                " MB on the GPU, but only " + std::to_string(static_cast<long>(free_bytes / 1e6)) +
                                " MB are free: choose a smaller --size");
}

// The median of `repeats` whole calls on the host clock, after one untimed call.
double median_call_ms(const std::function<void()>& call, int repeats = 5) {
  call();
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) ms.push_back(stepwise::host_ms(call));
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

// The kernel alone on one stream, timed with events.
double kernel_ms(const float* d_in, float* d_out, int n, int work, cudaStream_t stream) {
  transform_async(d_in, d_out, n, work, stream);  // loads the kernel
  stepwise::EventTimer timer;
  timer.start(stream);
  transform_async(d_in, d_out, n, work, stream);
  return timer.stop(stream);
}

// Both pinned copies at once, each on a stream of its own, timed with events (the median of 5):
// what the host link moves when both directions are busy. Blocking streams wait for the default
// stream's events and the events for them, so the timer brackets both copies.
double copies_at_once_ms(float* d_in, const float* in, float* out, const float* d_out, std::size_t bytes) {
  cudaStream_t to_device = nullptr, to_host = nullptr;
  CUDA_CHECK(cudaStreamCreate(&to_device));
  CUDA_CHECK(cudaStreamCreate(&to_host));
  std::vector<double> ms;
  for (int r = 0; r < 5; ++r) {
    stepwise::EventTimer timer;
    timer.start();
    CUDA_CHECK(cudaMemcpyAsync(d_in, in, bytes, cudaMemcpyHostToDevice, to_device));
    CUDA_CHECK(cudaMemcpyAsync(out, d_out, bytes, cudaMemcpyDeviceToHost, to_host));
    ms.push_back(timer.stop());
  }
  CUDA_CHECK(cudaStreamDestroy(to_device));
  CUDA_CHECK(cudaStreamDestroy(to_host));
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

// One row per stream: '>' copy in, '#' kernel, '<' copy out, '.' idle, `width` columns for
// the whole pipeline.
void draw_timeline(const std::vector<Segment>& segments, int width) {
  float first = segments.front().start_ms, last = 0;
  for (const Segment& s : segments) {
    first = std::min(first, s.start_ms);
    last = std::max(last, s.end_ms);
  }
  const float span = std::max(last - first, 1e-6f);
  std::vector<std::string> rows(kPipelineStreams, std::string(width, '.'));
  for (const Segment& s : segments) {
    const char symbol = s.stage == Stage::copy_in ? '>' : s.stage == Stage::kernel ? '#' : '<';
    const int from = std::min(width - 1, static_cast<int>((s.start_ms - first) / span * width));
    const int to = std::max(from + 1, static_cast<int>((s.end_ms - first) / span * width + 0.5f));
    for (int x = from; x < std::min(to, width); ++x) rows[s.row][x] = symbol;
  }
  std::printf("\nThe pipeline on the GPU ('>' copy in, '#' kernel, '<' copy out), %.3f ms across:\n", span);
  for (int r = 0; r < kPipelineStreams; ++r) std::printf("  stream %d |%s|\n", r, rows[r].c_str());
}

}  // namespace

int main(int argc, char** argv) {
  return stepwise::run_demo(argc, argv, help(), [&] {
    Options o = parse_options(argc, argv);
    const int n = o.n;
    require_device_memory(n);
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
    stepwise::PinnedBuffer<float> in(n), out(n), out_one_stream(n);
    std::vector<float> pageable(n);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> values(-1, 1);
    for (int i = 0; i < n; ++i) in[i] = pageable[i] = values(rng);
    stepwise::DeviceBuffer<float> d_in(n), d_out(n);

    std::printf("%d floats, %.1f MB each way\n\n", n, bytes / 1e6);
    std::printf("  step 1: one copy     (timed_copy)   GB/s   copy ms   cudaMemcpyAsync returned after ms\n");
    struct Copy {
      const char* name;
      void* dst;
      const void* src;
      cudaMemcpyKind kind;
    } copies[] = {{"host to device, pageable", d_in.data(), pageable.data(), cudaMemcpyHostToDevice},
                  {"host to device, pinned", d_in.data(), in.data(), cudaMemcpyHostToDevice},
                  {"device to host, pageable", pageable.data(), d_in.data(), cudaMemcpyDeviceToHost},
                  {"device to host, pinned", out.data(), d_in.data(), cudaMemcpyDeviceToHost}};
    CopyTiming pinned[2];
    for (const Copy& c : copies) {
      timed_copy(c.dst, c.src, bytes, c.kind, kStream);  // the first copy from a buffer touches its pages
      const CopyTiming t = timed_copy(c.dst, c.src, bytes, c.kind, kStream);
      std::printf("  %-36s %6.1f %9.3f %12.3f\n", c.name, bytes / 1e6 / t.gpu_ms, t.gpu_ms, t.call_ms);
      if (c.src == in.data()) pinned[0] = t;
      if (c.dst == out.data()) pinned[1] = t;
    }

    const double copy_in_ms = pinned[0].gpu_ms, copy_out_ms = pinned[1].gpu_ms;
    const double both_ms = copies_at_once_ms(d_in.data(), in.data(), out.data(), d_out.data(), bytes);
    std::printf("  %-36s %6.1f %9.3f   (each way)\n", "both ways at once, pinned", bytes / 1e6 / both_ms, both_ms);
    if (o.work < 0) {
      constexpr int kTrialWork = 256;
      o.work = work_for_kernel_ms(both_ms, kTrialWork, kernel_ms(d_in.data(), d_out.data(), n, kTrialWork, kStream));
    }
    const double kernel_alone_ms = kernel_ms(d_in.data(), d_out.data(), n, o.work, kStream);
    int engines = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, 0));
    // A pipeline does the whole kernel and both whole copies, and overlaps them at best.
    const double bound_ms = std::max({copy_in_ms, copy_out_ms, both_ms, kernel_alone_ms});

    std::printf("\n%d rounds of work per value; the kernel alone takes %.3f ms. The GPU has %d copy engine(s).\n",
                o.work, kernel_alone_ms, engines);
    const double one_stream_ms = median_call_ms([&] {
      transform_one_stream(in.data(), out_one_stream.data(), d_in.data(), d_out.data(), n, o.work, kStream);
    });
    std::printf("  step 2: one stream                  %9.3f ms  (copy in + kernel + copy out = %.3f ms)\n",
                one_stream_ms, copy_in_ms + kernel_alone_ms + copy_out_ms);
    const double pipeline_ms = median_call_ms(
        [&] { transform_pipelined(in.data(), out.data(), d_in.data(), d_out.data(), n, o.work, o.chunks); });
    std::printf("  step 4: pipeline, %4d chunks        %9.3f ms  (%.2fx one stream; its bound is %.3f ms: %.0f%%)\n",
                o.chunks, pipeline_ms, one_stream_ms / pipeline_ms, bound_ms, 100 * bound_ms / pipeline_ms);
    std::printf("  (the bound: the longest of the kernel, each copy alone and both copies at once)\n");

    std::size_t differ = 0;
    for (int i = 0; i < n; ++i) differ += out[i] != out_one_stream[i];
    const int sample = std::min(n, 4096);
    std::size_t wrong = 0;
    for (int k = 0; k < sample; ++k) {
      const std::size_t i = static_cast<std::size_t>(k) * n / sample;
      wrong += out[i] != transform(in[i], o.work);
    }
    std::printf("  the pipeline's output differs from one stream's at %zu of %d values, and from the CPU at %zu of %d sampled\n",
                differ, n, wrong, sample);

    Timeline timeline;
    transform_pipelined(in.data(), out.data(), d_in.data(), d_out.data(), n, o.work, o.chunks, &timeline);
    const std::vector<Segment> segments = timeline.segments();
    if (!segments.empty()) draw_timeline(segments, 96);
  });
}
