// Lesson 13: prefix sums, steps 1 to 3 (step 4, CUB, is cub_calls.cpp). Read README.md first: each
// TODO(step N) below is "Step N" there. Every kernel is a template, written once for int and
// float; the functions at the end of each step launch them for both.
#include "scan.h"

#include <cstddef>
#include <cstdint>

#include "status_word.h"
#include "stepwise/arguments.h"
#include "stepwise/check.h"
#include "stepwise/todo.h"

namespace {

[[maybe_unused]] constexpr int kWarpSize = 32;
[[maybe_unused]] constexpr unsigned kFullMask = 0xffffffffu;  // every lane of the warp takes part in a shuffle

[[maybe_unused]] bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

// ---- Step 1: one block per row -------------------------------------------------------------
[[maybe_unused]] constexpr int kRowThreads = 256;  // a power of two: both scans halve or double it

template <typename T>
__global__ void hillis_steele_rows_kernel(const T* in, T* out, int cols) {
  // TODO(step 1): block blockIdx.x scans row blockIdx.x (it starts at in + blockIdx.x * cols;
  // use std::size_t for that product). Two __shared__ arrays of kRowThreads values (T
  // buffer[2][kRowThreads]) and a running total `carry` = 0. For each piece of the row,
  // start = 0, kRowThreads, 2 * kRowThreads, ... < cols: thread t loads element start + t into
  // buffer[0][t] (0 past the end of the row); __syncthreads(); then for offset = 1, 2, 4, ...,
  // 128: buffer[to][t] = buffer[from][t] plus buffer[from][t - offset] when t >= offset, swap
  // from and to, __syncthreads(). Write carry + buffer[from][t] when start + t < cols, add
  // buffer[from][kRowThreads - 1] to carry, and __syncthreads() before the next piece.
}

template <typename T>
__global__ void blelloch_rows_kernel(const T* in, T* out, int cols) {
  // TODO(step 1): pieces of 2 * kRowThreads elements, two per thread (t and t + kRowThreads),
  // kept in registers and in a __shared__ array `tree`. Up-sweep: stride = 1, for active =
  // kRowThreads, kRowThreads / 2, ..., 1: __syncthreads(); threads t < active add
  // tree[stride * (2t + 1) - 1] into tree[stride * (2t + 2) - 1]; stride *= 2. Thread 0 saves the
  // root (the piece's total) in a __shared__ variable and sets the root to 0. Down-sweep: for
  // active = 1, 2, ..., kRowThreads: stride /= 2; __syncthreads(); threads t < active swap the
  // left value into the right one's place and add: left' = right, right' = right + left.
  // __syncthreads(); tree now holds the exclusive scan: write carry + (tree[i] + x_i) for each of
  // the thread's two elements inside the row, add the piece's total to carry, __syncthreads().
}

namespace {
template <typename T>
void launch_rows(void (*kernel)(const T*, T*, int), const T* in, T* out, int rows, int cols, cudaStream_t stream,
                 const char* function) {
  stepwise::require_at_least(rows, 0, "rows", function);
  stepwise::require_at_least(cols, 0, "cols", function);
  // TODO(step 1): return when rows or cols is 0; launch `kernel` with one block of
  // kRowThreads threads per row, on `stream` (the fourth launch parameter), and
  // CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(1);
}
}  // namespace

void scan_rows_hillis_steele(const int* in, int* out, int rows, int cols, cudaStream_t stream) {
  launch_rows(hillis_steele_rows_kernel<int>, in, out, rows, cols, stream, "scan_rows_hillis_steele");
}
void scan_rows_hillis_steele(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch_rows(hillis_steele_rows_kernel<float>, in, out, rows, cols, stream, "scan_rows_hillis_steele");
}
void scan_rows_blelloch(const int* in, int* out, int rows, int cols, cudaStream_t stream) {
  launch_rows(blelloch_rows_kernel<int>, in, out, rows, cols, stream, "scan_rows_blelloch");
}
void scan_rows_blelloch(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch_rows(blelloch_rows_kernel<float>, in, out, rows, cols, stream, "scan_rows_blelloch");
}

// ---- Step 2: tiles of 4096 elements ----------------------------------------------------------
// Given: the layout of a tile. A tile is 128 threads x 32 elements. Warp w owns 1024 consecutive
// elements of it, in 8 pieces of 128; in piece j, lane l holds the 4 elements at
// w*1024 + j*128 + l*4: one 16-byte load per lane, 512 consecutive bytes per warp.
constexpr int kTileThreads = 128;
[[maybe_unused]] constexpr int kTileWarps = kTileThreads / kWarpSize;
constexpr int kPieces = 8;                         // 16-byte vectors per thread
constexpr int kWarpPiece = 4 * kWarpSize;          // elements of one piece
constexpr int kTile = kTileThreads * 4 * kPieces;  // 4096 elements

template <typename T>
struct Vector4;
template <>
struct Vector4<int> {
  using type = int4;
};
template <>
struct Vector4<float> {
  using type = float4;
};

// The index of element [j][k] of this thread, counted from the tile's start.
__device__ inline int tile_offset(int j, int k) {
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  return warp * (kPieces * kWarpPiece) + j * kWarpPiece + lane * 4 + k;
}

// Given: this thread's 32 elements of the tile starting at `start` (0 past the end). `vectors`:
// the array starts on a 16-byte boundary, so a whole tile can be read with int4/float4 loads.
template <typename T>
__device__ void load_tile(const T* in, long long start, int n, bool vectors, T (&v)[kPieces][4]) {
  using V = typename Vector4<T>::type;
  if (vectors && start + kTile <= n) {
#pragma unroll
    for (int j = 0; j < kPieces; ++j) {
      const V q = *reinterpret_cast<const V*>(in + start + tile_offset(j, 0));
      v[j][0] = q.x;
      v[j][1] = q.y;
      v[j][2] = q.z;
      v[j][3] = q.w;
    }
    return;
  }
#pragma unroll
  for (int j = 0; j < kPieces; ++j)
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long i = start + tile_offset(j, k);
      v[j][k] = i < n ? in[i] : T(0);
    }
}

// Given: the same elements written back (none past n).
template <typename T>
__device__ void store_tile(T* out, long long start, int n, bool vectors, const T (&v)[kPieces][4]) {
  using V = typename Vector4<T>::type;
  if (vectors && start + kTile <= n) {
#pragma unroll
    for (int j = 0; j < kPieces; ++j) {
      V q;
      q.x = v[j][0];
      q.y = v[j][1];
      q.z = v[j][2];
      q.w = v[j][3];
      *reinterpret_cast<V*>(out + start + tile_offset(j, 0)) = q;
    }
    return;
  }
#pragma unroll
  for (int j = 0; j < kPieces; ++j)
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long i = start + tile_offset(j, k);
      if (i < n) out[i] = v[j][k];
    }
}

// The inclusive scan of one value per lane across a warp.
template <typename T>
__device__ T warp_inclusive_scan(T v) {
  // TODO(step 2): Hillis-Steele in registers: for offset = 1, 2, 4, 8, 16, take
  // before = __shfl_up_sync(kFullMask, v, offset) (every lane must call it) and, in lanes
  // >= offset, v = before + v.
  return v;
}

// Scans a tile held in registers: v becomes the inclusive scan from the tile's start. Returns the
// tile's total, in every thread. `warp_totals`: kTileWarps values of shared memory.
template <typename T>
__device__ T scan_tile(T (&v)[kPieces][4], T* warp_totals) {
  // TODO(step 2): running = 0 (this warp's sum of the pieces before piece j). For each piece j:
  // scan the lane's 4 values in place; inclusive = warp_inclusive_scan(v[j][3]); the lanes
  // before this one sum to __shfl_up_sync(kFullMask, inclusive, 1) (0 in lane 0); add running +
  // that to the 4 values; add the piece's total (lane 31's inclusive, __shfl_sync) to running.
  // Then lane 0 writes running to warp_totals[warp]; __syncthreads(); every thread adds the
  // totals of the warps before its own to its values, and returns the sum of all kTileWarps.
  return T(0);
}

// Three phases. Block b scans tile b and writes the tile's total to tile_totals[b].
template <typename T>
__global__ void __launch_bounds__(kTileThreads) scan_tiles_kernel(const T* in, T* out, int n, bool vectors,
                                                                  T* tile_totals) {
  // TODO(step 2): a __shared__ T warp_totals[kTileWarps]; start = blockIdx.x * kTile (as long
  // long); load_tile, scan_tile, store_tile; thread 0 writes the total.
}

// Block b adds the inclusive scan of the totals of tiles 0 .. b to tile b + 1.
template <typename T>
__global__ void __launch_bounds__(kTileThreads) add_offsets_kernel(T* out, int n, bool vectors,
                                                                   const T* scanned_totals) {
  // TODO(step 2): tile = blockIdx.x + 1; load its elements from out (load_tile), add
  // scanned_totals[tile - 1] to each, store_tile.
}

namespace {
[[maybe_unused]] int tiles_for(int n) { return static_cast<int>((static_cast<long long>(n) + kTile - 1) / kTile); }
}  // namespace

// Given: scratch memory for one call, taken from the device's stream-ordered pool and given back
// in stream order after the call's kernels (no synchronisation). The pool keeps what it had
// (release threshold raised once), so later calls cost no new mapping of memory.
class Scratch {
 public:
  Scratch(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
    static const bool kept = [] {
      int device = 0;
      cudaMemPool_t pool = nullptr;
      CUDA_CHECK(cudaGetDevice(&device));
      CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
      std::uint64_t keep = UINT64_MAX;
      CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
      return true;
    }();
    (void)kept;
    CUDA_CHECK(cudaMallocAsync(&data_, bytes, stream));
  }
  ~Scratch() { (void)cudaFreeAsync(data_, stream_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  template <typename U>
  U* at(std::size_t byte_offset) const {
    return reinterpret_cast<U*>(static_cast<unsigned char*>(data_) + byte_offset);
  }

 private:
  void* data_ = nullptr;
  cudaStream_t stream_;
};

namespace {
template <typename T>
void three_phase(const T* in, T* out, int n, cudaStream_t stream) {
  stepwise::require_at_least(n, 0, "n", "scan_three_phase");
  // TODO(step 2): return when n is 0. tiles = tiles_for(n); vectors = aligned16(in) &&
  // aligned16(out); a Scratch of 2 * tiles values: the totals, then their scan. Launch
  // scan_tiles_kernel (tiles blocks of kTileThreads); when tiles > 1, scan the totals with
  // blelloch_rows_kernel as one row of `tiles` values (1 block of kRowThreads) and launch
  // add_offsets_kernel on tiles - 1 blocks. All on `stream`, each launch checked. Delete the line
  // below.
  STEPWISE_TODO(2);
}
}  // namespace

void scan_three_phase(const int* in, int* out, int n, cudaStream_t stream) { three_phase(in, out, n, stream); }
void scan_three_phase(const float* in, float* out, int n, cudaStream_t stream) { three_phase(in, out, n, stream); }

// -- One pass with decoupled look-back. Given: one 64-bit status word per tile, the status in the
// high half and the value's bits in the low half, so a reader always sees a status and its value
// together.
[[maybe_unused]] constexpr unsigned long long kAggregate = 1ull << 32;  // the tile's own total
[[maybe_unused]] constexpr unsigned long long kPrefix = 2ull << 32;     // everything up to and with the tile

__device__ inline unsigned bits_of(int v) { return static_cast<unsigned>(v); }
__device__ inline unsigned bits_of(float v) { return __float_as_uint(v); }
template <typename T>
__device__ T value_of(unsigned long long word);
template <>
__device__ inline int value_of<int>(unsigned long long word) {
  return static_cast<int>(static_cast<unsigned>(word));
}
template <>
__device__ inline float value_of<float>(unsigned long long word) {
  return __uint_as_float(static_cast<unsigned>(word));
}

// publish() and peek(), which store and load a status word whole, are in status_word.h (given).

// Called by the whole of warp 0: the sum of all tiles before `tile`.
template <typename T>
__device__ T look_back(unsigned long long* statuses, int tile) {
  // TODO(step 2): exclusive = 0. Windows of 32 predecessors, end = tile - 1, tile - 33, ...: lane
  // l looks at tile end - l (a tile below 0 counts as kPrefix with value 0). Re-read the words
  // (peek) while __any_sync says some lane still sees status 0. Then
  // __ballot_sync(kFullMask, status == 2) gives the lanes holding a prefix; the lowest of them
  // (__ffs(mask) - 1) is the nearest. Sum the values of lanes 0 .. nearest (all 32 when there is
  // no prefix) with __shfl_xor_sync, add to exclusive; return it when the window held a prefix.
  return T(0);
}

// The tile's exclusive prefix, for every thread of the block.
template <typename T>
__device__ T tile_prefix(unsigned long long* statuses, int tile, T total, T* shared_prefix) {
  // TODO(step 2): in warp 0: tile 0 publishes kPrefix | bits_of(total) (lane 0) and its prefix is
  // 0; any other tile publishes kAggregate | bits_of(total) first (lane 0), then the whole warp
  // calls look_back, then lane 0 publishes kPrefix | bits_of(exclusive + total). Lane 0 writes
  // the exclusive prefix to *shared_prefix; __syncthreads() (all threads); return it.
  return T(0);
}

// The tile this block scans, the same in all its threads.
__device__ inline int take_tile(unsigned* counter, int* shared_tile) {
  // TODO(step 2): thread 0 takes atomicAdd(counter, 1u) into *shared_tile; __syncthreads();
  // return it. Not blockIdx.x: README, "Why a tile's index comes from a counter".
  return 0;
}

template <typename T>
__global__ void __launch_bounds__(kTileThreads) single_pass_kernel(const T* in, T* out, int n, bool vectors,
                                                                   unsigned* counter,
                                                                   unsigned long long* statuses) {
  // TODO(step 2): take_tile; load_tile; total = scan_tile; prefix = tile_prefix; add prefix to
  // every value; store_tile. Shared memory: warp_totals[kTileWarps], the prefix, the tile.
}

namespace {
// Given: the look-back's state: the tile counter (8 bytes, so the words after it stay aligned),
// then one status word per tile, all zero before the kernel starts.
constexpr std::size_t kCounterBytes = 8;
[[maybe_unused]] std::size_t look_back_bytes(int tiles) { return kCounterBytes + sizeof(unsigned long long) * tiles; }

template <typename T>
void single_pass(const T* in, T* out, int n, cudaStream_t stream) {
  stepwise::require_at_least(n, 0, "n", "scan_single_pass");
  // TODO(step 2): return when n is 0; a Scratch of look_back_bytes(tiles), set to 0 with
  // cudaMemsetAsync on `stream`; launch single_pass_kernel, one block per tile, with
  // scratch.at<unsigned>(0) and scratch.at<unsigned long long>(kCounterBytes). Delete the line
  // below.
  STEPWISE_TODO(2);
}
}  // namespace

void scan_single_pass(const int* in, int* out, int n, cudaStream_t stream) { single_pass(in, out, n, stream); }
void scan_single_pass(const float* in, float* out, int n, cudaStream_t stream) { single_pass(in, out, n, stream); }

// ---- Step 3: stream compaction --------------------------------------------------------------
template <typename T>
__global__ void __launch_bounds__(kTileThreads) compact_kernel(const T* in, T* out, int* count, int n, T threshold,
                                                               bool vectors, int tiles, unsigned* counter,
                                                               unsigned long long* statuses) {
  // TODO(step 3): as single_pass_kernel, but count keep-flags: 1 where the element is inside the
  // array and > threshold, else 0 (scan them as ints with scan_tile, or count them per warp with
  // votes: the README's step 3). After tile_prefix, a kept element goes to out[prefix + the number
  // of kept elements before it in the tile], in order. The block with tile == tiles - 1 writes
  // *count = prefix + total (thread 0).
}

namespace {
template <typename T>
void compact(const T* in, T* out, int* count, int n, T threshold, cudaStream_t stream) {
  stepwise::require_at_least(n, 0, "n", "compact_greater");
  // TODO(step 3): for n == 0 set *count to 0 (cudaMemsetAsync on `stream`) and return; otherwise
  // as single_pass, launching compact_kernel (vectors: aligned16(in)). Delete the line below.
  STEPWISE_TODO(3);
}
}  // namespace

void compact_greater(const int* in, int* out, int* count, int n, int threshold, cudaStream_t stream) {
  compact(in, out, count, n, threshold, stream);
}
void compact_greater(const float* in, float* out, int* count, int n, float threshold, cudaStream_t stream) {
  compact(in, out, count, n, threshold, stream);
}
