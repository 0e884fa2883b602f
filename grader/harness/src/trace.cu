// grader::trace(): one call of the student's code, recorded by CUPTI's Activity API.
#include <cupti.h>
#include <cxxabi.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

#include "grader/inputs.h"
#include "grader/trace.h"
#include "stepwise/check.h"

namespace grader {
namespace {

constexpr std::size_t kBufferBytes = 8 << 20;
constexpr std::size_t kBufferAlign = 8;

__global__ void legacy_stream_marker() {}
// Launched on the caller's stream right after the call: when it starts, the caller's next work would.
__global__ void caller_next_work_marker() {}

std::string demangle(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}


// Names a kernel may show in a trace, for each of a list of mangled names.
std::set<std::string> trace_names(const std::vector<std::string>& mangled) {
  std::set<std::string> names;
  for (const std::string& m : mangled) {
    const std::string d = demangle(m);
    names.insert(m);
    names.insert(d);
    names.insert(kernel_name_without_parameters(d));
  }
  return names;
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// Which library a kernel's name belongs to, or "".
std::string library_of(const std::string& demangled) {
  if (demangled.rfind("cub::", 0) == 0 || contains(demangled, " cub::")) return "CUB";
  if (demangled.rfind("thrust::", 0) == 0 || contains(demangled, " thrust::")) return "Thrust";
  std::string lower = demangled;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* part : {"gemm", "gemv", "cublas", "xmma", "cutlass", "splitkreduce", "trsm", "syrk"})
    if (contains(lower, part)) return "cuBLAS";
  // cuFFT's kernels: "vector_fft", "regular_fft", ..., and for some sizes (525, 4116) a
  // "kernel_wrapper<...>" beside them (a student's kernel of that name is told apart by the list
  // of the kernels nvcc built from the student's files, which is read first).
  if (demangled.find("kernel_wrapper<") != std::string::npos) return "cuFFT";
  for (const char* part : {"fft", "postprocess", "preprocess"})
    if (contains(lower, part)) return "cuFFT";
  for (const char* part : {"curand", "gen_sequenced", "generate_seed", "precalc_xorwow", "philox", "mtgp", "mrg32k3a"})
    if (contains(lower, part)) return "cuRAND";
  return "";
}

struct Classifier {
  std::set<std::string> student = trace_names(kernels_built().student);
  std::set<std::string> checks = trace_names(kernels_built().checks);

  void classify(const std::string& raw, TracedKernel& kernel) const {
    kernel.name = demangle(raw);
    kernel.library = library_of(kernel.name);
    kernel.built_from_student_files = student.count(raw) > 0 || student.count(kernel.name) > 0;
    const bool in_checks = checks.count(raw) > 0 || checks.count(kernel.name) > 0;
    const bool in_library_namespace = kernel.library == "CUB" || kernel.library == "Thrust";
    if (in_library_namespace)
      kernel.origin = Origin::library;  // also when the student's file instantiated it
    else if (kernel.built_from_student_files)
      kernel.origin = Origin::student;
    else if (in_checks)  // a template header's kernel, or one of the checks' own
      kernel.origin = contains(kernel.name, "(anonymous namespace)") || kernel.name.rfind("grader", 0) == 0
                          ? Origin::grader
                          : Origin::student;
    else
      kernel.origin = kernel.library.empty() ? Origin::runtime_compiled : Origin::library;
  }
};

// CUPTI hands records over in buffers; the trace being collected takes them.
std::mutex collecting_mutex;
Trace* collecting = nullptr;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlign, kBufferBytes));
  *size = kBufferBytes;
  *max_records = 0;
}

std::string direction(uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "host to device";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "device to host";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "device to device";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "host to host";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "peer to peer";
    default: return "array";
  }
}

bool host_memory(uint8_t kind) {
  return kind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE || kind == CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
}

void take(const CUpti_Activity* record, Trace& trace) {
  static const Classifier classifier;
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      TracedKernel kernel{};
      classifier.classify(k->name ? k->name : "?", kernel);
      kernel.stream = k->streamId;
      kernel.grid = dim3(k->gridX, k->gridY, k->gridZ);
      kernel.block = dim3(k->blockX, k->blockY, k->blockZ);
      kernel.shared_bytes = k->staticSharedMemory + k->dynamicSharedMemory;
      kernel.start = k->start;
      kernel.end = k->end;
      trace.kernels.push_back(kernel);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto* c = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      trace.copies.push_back({direction(c->copyKind), host_memory(c->srcKind) || host_memory(c->dstKind),
                              c->srcKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE ||
                                  c->dstKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
                              (c->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0, c->bytes, c->streamId, c->start,
                              c->end});
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
      trace.memsets.push_back({m->bytes, m->streamId, m->start, m->end});
      break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
      const auto* s = reinterpret_cast<const CUpti_ActivitySynchronization2*>(record);
      const char* call = s->type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE    ? "cudaEventSynchronize"
                         : s->type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE ? "cudaStreamSynchronize"
                         : s->type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE
                             ? "cudaDeviceSynchronize"
                             : nullptr;  // a stream waiting for an event is no wait on the host
      if (call != nullptr) trace.syncs.push_back({call, s->streamId, s->start, s->end});
      break;
    }
    default:
      break;
  }
}

// The device memory allocated less freed since device_memory_held() first enabled its records.
std::atomic<long long> device_bytes_held{0};

void count_memory(const CUpti_Activity* record) {
  const auto* m = reinterpret_cast<const CUpti_ActivityMemory4*>(record);
  if (m->memoryKind != CUPTI_ACTIVITY_MEMORY_KIND_DEVICE) return;  // pinned host memory is not the GPU's
  const long long bytes = static_cast<long long>(m->bytes);
  if (m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION) device_bytes_held += bytes;
  if (m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE) device_bytes_held -= bytes;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_bytes) {
  {
    std::lock_guard<std::mutex> lock(collecting_mutex);
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
      if (record->kind == CUPTI_ACTIVITY_KIND_MEMORY2)
        count_memory(record);
      else if (collecting != nullptr)
        take(record, *collecting);
    }
  }
  std::free(buffer);
}

const CUpti_ActivityKind kKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                     CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION};

std::string cupti_error(const char* what, CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  return std::string(what) + " failed: " + (text ? text : "unknown CUPTI error") +
         " (another profiler, e.g. Nsight Systems or Nsight Compute, may be attached)";
}

// Hands CUPTI the buffer callbacks, once, or says why it cannot.
const std::string& register_callbacks() {
  static const std::string registered = [] {
    const CUptiResult result = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    return result == CUPTI_SUCCESS ? std::string() : cupti_error("cuptiActivityRegisterCallbacks", result);
  }();
  return registered;
}

// Enables the kinds traced, or says why it cannot.
std::string start_recording() {
  const std::string& registered = register_callbacks();
  if (!registered.empty()) return registered;
  for (CUpti_ActivityKind kind : kKinds) {
    const CUptiResult result = cuptiActivityEnable(kind);
    if (result != CUPTI_SUCCESS) return cupti_error("cuptiActivityEnable", result);
  }
  return "";
}

void stop_recording() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  for (CUpti_ActivityKind kind : kKinds) cuptiActivityDisable(kind);
}

// Records `call` into `into` (the device synchronised before and after).
std::string record(const std::function<void()>& call, Trace& into, cudaStream_t stream = nullptr,
                   bool mark_next_work = false) {
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::string error = start_recording();
  if (!error.empty()) return error;
  {
    std::lock_guard<std::mutex> lock(collecting_mutex);
    collecting = &into;
  }
  struct StopAtEnd {  // also when `call` throws (a TODO)
    Trace& trace;
    ~StopAtEnd() {
      cudaDeviceSynchronize();
      stop_recording();
      std::lock_guard<std::mutex> lock(collecting_mutex);
      collecting = nullptr;
    }
  } stop{into};
  cuptiGetTimestamp(&into.called_at);
  call();
  cuptiGetTimestamp(&into.returned_at);
  if (mark_next_work) {
    caller_next_work_marker<<<1, 1, 0, stream>>>();
    CUDA_CHECK(cudaGetLastError());
  }
  return "";
}

// The legacy default stream's id, from a trace of one empty kernel launched on it.
std::uint32_t legacy_stream_id() {
  static const std::uint32_t id = [] {
    // Load the markers' module before anything is traced: under lazy loading the first launch of
    // caller_next_work_marker would otherwise wait for it, and start late.
    caller_next_work_marker<<<1, 1>>>();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    Trace marker;
    if (!record([] { legacy_stream_marker<<<1, 1>>>(); }, marker).empty() || marker.kernels.empty()) return 0u;
    return marker.kernels.front().stream;
  }();
  return id;
}

std::string ms_text(std::uint64_t start, std::uint64_t end) {
  std::ostringstream text;
  text.precision(3);
  text << (end - start) / 1e6 << " ms";
  return text.str();
}

}  // namespace

long long device_memory_held() {
  static const bool counting = register_callbacks().empty() && cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMORY2) == CUPTI_SUCCESS;
  if (!counting) return -1;
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  return device_bytes_held.load();
}

// The parameter list is the first '(' outside template arguments and outside
// "(anonymous namespace)", which a demangled name may hold before it.
std::string kernel_name_without_parameters(const std::string& demangled) {
  static const std::string anonymous = "(anonymous namespace)";
  int depth = 0;  // inside how many template argument lists
  for (std::size_t i = 0; i < demangled.size(); ++i) {
    const char c = demangled[i];
    if (c == '<') ++depth;
    else if (c == '>' && depth > 0) --depth;
    else if (c == '(' && demangled.compare(i, anonymous.size(), anonymous) == 0) i += anonymous.size() - 1;
    else if (c == '(' && depth == 0) return demangled.substr(0, i);
  }
  return demangled;
}

std::string kernel_display_name(const std::string& demangled) {
  const std::string name = kernel_name_without_parameters(demangled);
  const std::string returns = "void ";
  return name.rfind(returns, 0) == 0 ? name.substr(returns.size()) : name;
}

std::string kernel_short_name(const std::string& demangled) {
  constexpr std::size_t kMost = 90;
  std::string shown = kernel_display_name(demangled);
  if (shown.size() > kMost) shown = shown.substr(0, kMost - 3) + "...";
  return shown;
}

std::uint32_t Trace::stream_id(cudaStream_t stream) const {
  if (stream == nullptr || stream == cudaStreamLegacy) return legacy_stream;
  std::uint32_t id = 0;
  const bool per_thread = stream == cudaStreamPerThread;
  if (cuptiGetStreamIdEx(nullptr, reinterpret_cast<CUstream>(stream), per_thread ? 1 : 0, &id) != CUPTI_SUCCESS)
    return UINT32_MAX;
  return id;
}

std::vector<const TracedKernel*> Trace::kernels_of(Origin origin) const {
  std::vector<const TracedKernel*> found;
  for (const TracedKernel& k : kernels)
    if (k.origin == origin) found.push_back(&k);
  return found;
}

double Trace::span_ms() const {
  std::uint64_t first = UINT64_MAX, last = 0;
  auto cover = [&](std::uint64_t start, std::uint64_t end) {
    first = std::min(first, start);
    last = std::max(last, end);
  };
  for (const auto& k : kernels) cover(k.start, k.end);
  for (const auto& c : copies) cover(c.start, c.end);
  for (const auto& m : memsets) cover(m.start, m.end);
  return last > first ? (last - first) / 1e6 : 0.0;
}

double Trace::kernel_span_ms() const {
  std::uint64_t first = UINT64_MAX, last = 0;
  for (const auto& k : kernels) {
    first = std::min(first, k.start);
    last = std::max(last, k.end);
  }
  return last > first ? (last - first) / 1e6 : 0.0;
}

std::string Trace::stream_name(std::uint32_t stream) const {
  return stream == legacy_stream ? "the legacy default stream" : "stream " + std::to_string(stream);
}

std::string Trace::listing(std::size_t max_lines) const {
  struct Line {
    std::uint64_t start;
    std::string text;
  };
  std::vector<Line> lines;
  auto origin_text = [](const TracedKernel& k) -> std::string {
    switch (k.origin) {
      case Origin::student: return "yours";
      case Origin::grader: return "the grader's";
      case Origin::library: return k.library;
      default: return "compiled at run time or a library's";
    }
  };
  for (const auto& k : kernels) {
    std::ostringstream line;
    line << "kernel " << kernel_short_name(k.name) << " (" << origin_text(k) << "), grid " << k.grid.x << "x" << k.grid.y
         << "x" << k.grid.z << ", block " << k.block.x << "x" << k.block.y << "x" << k.block.z << ", "
         << k.shared_bytes << " B shared, " << stream_name(k.stream) << ", " << ms_text(k.start, k.end);
    lines.push_back({k.start, line.str()});
  }
  for (const auto& c : copies)
    lines.push_back({c.start, "copy " + c.direction + ", " + std::to_string(c.bytes) + " B" +
                                  (c.pageable ? " (pageable)" : "") + (c.async ? "" : " (blocking)") + ", " +
                                  stream_name(c.stream) + ", " + ms_text(c.start, c.end)});
  for (const auto& m : memsets)
    lines.push_back({m.start, "memset " + std::to_string(m.bytes) + " B, " + stream_name(m.stream) + ", " +
                                  ms_text(m.start, m.end)});
  for (const auto& s : syncs) lines.push_back({s.start, s.call + " (the host waited " + ms_text(s.start, s.end) + ")"});
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.start < b.start; });
  std::ostringstream text;
  if (lines.empty()) text << "    nothing on the GPU\n";
  for (std::size_t i = 0; i < lines.size() && i < max_lines; ++i) text << "    " << lines[i].text << "\n";
  if (lines.size() > max_lines) text << "    ... and " << lines.size() - max_lines << " more\n";
  return text.str();
}

Trace trace(const std::function<void()>& call, cudaStream_t stream) {
  Trace result;
  if (under_sanitizer()) {  // CUPTI and compute-sanitizer do not share a process
    result.unavailable_reason = "not traced under compute-sanitizer";
    call();
    return result;
  }
  result.legacy_stream = legacy_stream_id();
  result.unavailable_reason = record(call, result, stream, true);
  result.available = result.unavailable_reason.empty();
  // The marker is the grader's, not the call's: it leaves the kernels, its start stays.
  const auto marker = std::find_if(result.kernels.begin(), result.kernels.end(), [](const TracedKernel& k) {
    return k.name.find("caller_next_work_marker") != std::string::npos;
  });
  if (marker != result.kernels.end()) {
    result.caller_next_at = marker->start;
    result.kernels.erase(marker);
  }
  // The grader's own synchronisation after the call is not the call's.
  result.syncs.erase(std::remove_if(result.syncs.begin(), result.syncs.end(),
                                    [&](const TracedSync& s) { return s.start > result.returned_at; }),
                     result.syncs.end());
  return result;
}

}  // namespace grader
