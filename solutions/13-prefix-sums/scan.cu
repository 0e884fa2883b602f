// Lesson 13 reference solution: row scans (Hillis-Steele, Blelloch), whole-array scans (three
// phases; one pass with decoupled look-back) and stream compaction (CUB's: cub_calls.cpp).
#include "scan.h"

#include <cstddef>
#include <cstdint>

#include "status_word.h"
#include "stepwise/arguments.h"
#include "stepwise/check.h"

namespace {

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;  // every lane of the warp takes part in a shuffle

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace

// ---- Step 1: one block per row -------------------------------------------------------------
constexpr int kRowThreads = 256;  // a power of two: both scans halve or double it

// Hillis-Steele: in each of log2(256) = 8 rounds every element adds the one `offset` places
// before it. A round reads one shared array and writes the other (double buffering): written in
// place, a thread could read a neighbour that another warp has already updated in this round.
// A row longer than the block is scanned 256 elements at a time; `carry` (the same in every
// thread) is the sum of the pieces before.
template <typename T>
__global__ void hillis_steele_rows_kernel(const T* in, T* out, int cols) {
  __shared__ T buffer[2][kRowThreads];
  const int t = threadIdx.x;
  const T* row_in = in + static_cast<std::size_t>(blockIdx.x) * cols;
  T* row_out = out + static_cast<std::size_t>(blockIdx.x) * cols;
  T carry = T(0);
  for (int start = 0; start < cols; start += kRowThreads) {
    const int i = start + t;
    buffer[0][t] = i < cols ? row_in[i] : T(0);
    __syncthreads();
    int from = 0;
    for (int offset = 1; offset < kRowThreads; offset *= 2) {
      const T mine = buffer[from][t];
      buffer[1 - from][t] = t >= offset ? buffer[from][t - offset] + mine : mine;
      from = 1 - from;
      __syncthreads();  // the round is written everywhere before anyone reads it
    }
    if (i < cols) row_out[i] = carry + buffer[from][t];
    carry += buffer[from][kRowThreads - 1];
    __syncthreads();  // everyone has read this piece before the next one overwrites buffer[0]
  }
}

// Blelloch: 512 elements per piece, two per thread. The up-sweep builds a tree of partial sums
// in place (n - 1 additions); the root is cleared and the down-sweep pushes each node's prefix
// down to its children (n - 1 more), leaving the exclusive scan. Adding each thread's own
// elements back gives the inclusive one.
template <typename T>
__global__ void blelloch_rows_kernel(const T* in, T* out, int cols) {
  constexpr int kPiece = 2 * kRowThreads;
  __shared__ T tree[kPiece];
  __shared__ T piece_total;
  const int t = threadIdx.x;
  const T* row_in = in + static_cast<std::size_t>(blockIdx.x) * cols;
  T* row_out = out + static_cast<std::size_t>(blockIdx.x) * cols;
  T carry = T(0);
  for (int start = 0; start < cols; start += kPiece) {
    const int a = start + t, b = start + t + kRowThreads;
    const T xa = a < cols ? row_in[a] : T(0);
    const T xb = b < cols ? row_in[b] : T(0);
    tree[t] = xa;
    tree[t + kRowThreads] = xb;
    int stride = 1;
    for (int active = kRowThreads; active > 0; active /= 2) {  // up-sweep
      __syncthreads();
      if (t < active) {
        const int right = stride * (2 * t + 2) - 1;
        tree[right] += tree[right - stride];
      }
      stride *= 2;
    }
    if (t == 0) {  // the root holds the piece's total; the exclusive prefix of the whole piece is 0
      piece_total = tree[kPiece - 1];
      tree[kPiece - 1] = T(0);
    }
    for (int active = 1; active <= kRowThreads; active *= 2) {  // down-sweep
      stride /= 2;
      __syncthreads();
      if (t < active) {
        const int right = stride * (2 * t + 2) - 1;
        const T left = tree[right - stride];
        tree[right - stride] = tree[right];  // the left child's prefix: its parent's
        tree[right] += left;                 // the right child's: the parent's plus the left subtree
      }
    }
    __syncthreads();
    if (a < cols) row_out[a] = carry + (tree[t] + xa);
    if (b < cols) row_out[b] = carry + (tree[t + kRowThreads] + xb);
    carry += piece_total;
    __syncthreads();  // piece_total and tree are read before the next piece writes them
  }
}

namespace {
template <typename T>
void launch_rows(void (*kernel)(const T*, T*, int), const T* in, T* out, int rows, int cols, cudaStream_t stream,
                 const char* function) {
  stepwise::require_at_least(rows, 0, "rows", function);
  stepwise::require_at_least(cols, 0, "cols", function);
  if (rows == 0 || cols == 0) return;
  kernel<<<rows, kRowThreads, 0, stream>>>(in, out, cols);
  CUDA_CHECK_LAUNCH();
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
// A tile is 128 threads x 32 elements. Warp w owns 1024 consecutive elements of it, in 8 pieces of
// 128; in piece j, lane l holds the 4 elements at w*1024 + j*128 + l*4: one 16-byte load per lane,
// and 512 consecutive bytes per warp (coalesced). Many elements per thread keep many loads in
// flight while a block waits for its look-back (on an H100, 256 threads x 16 elements were
// slower than 128 x 32 when this was tuned; that variant is not kept, so not measured since).
constexpr int kTileThreads = 128;
constexpr int kTileWarps = kTileThreads / kWarpSize;
constexpr int kPieces = 8;                               // 16-byte vectors per thread
constexpr int kWarpPiece = 4 * kWarpSize;                // elements of one piece
constexpr int kTile = kTileThreads * 4 * kPieces;        // 4096 elements

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

// This thread's 32 elements of the tile starting at `start` (0 past the end). `vectors`: the
// array starts on a 16-byte boundary, so a whole tile can be read with int4/float4 loads.
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

// The inclusive scan of one value per lane across a warp: 5 rounds of Hillis-Steele in registers.
template <typename T>
__device__ T warp_inclusive_scan(T v) {
  const int lane = threadIdx.x % kWarpSize;
#pragma unroll
  for (int offset = 1; offset < kWarpSize; offset *= 2) {
    const T before = __shfl_up_sync(kFullMask, v, offset);
    if (lane >= offset) v = before + v;
  }
  return v;
}

// Scans a tile held in registers: v becomes the inclusive scan from the tile's start. Returns the
// tile's total, in every thread. `warp_totals`: kTileWarps values of shared memory.
template <typename T>
__device__ T scan_tile(T (&v)[kPieces][4], T* warp_totals) {
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  T running = T(0);  // this warp's elements in the pieces before piece j
#pragma unroll
  for (int j = 0; j < kPieces; ++j) {
#pragma unroll
    for (int k = 1; k < 4; ++k) v[j][k] = v[j][k - 1] + v[j][k];
    const T inclusive = warp_inclusive_scan(v[j][3]);
    T exclusive = __shfl_up_sync(kFullMask, inclusive, 1);  // the lanes before this one
    if (lane == 0) exclusive = T(0);
    const T before = running + exclusive;
#pragma unroll
    for (int k = 0; k < 4; ++k) v[j][k] = before + v[j][k];
    running = running + __shfl_sync(kFullMask, inclusive, kWarpSize - 1);
  }
  if (lane == 0) warp_totals[warp] = running;
  __syncthreads();
  T before_warp = T(0), total = T(0);
#pragma unroll
  for (int w = 0; w < kTileWarps; ++w) {
    const T t = warp_totals[w];
    if (w < warp) before_warp = before_warp + t;
    total = total + t;
  }
#pragma unroll
  for (int j = 0; j < kPieces; ++j)
#pragma unroll
    for (int k = 0; k < 4; ++k) v[j][k] = before_warp + v[j][k];
  return total;
}

// -- Three phases: scan every tile, scan the tiles' totals, add each tile's offset back.
template <typename T>
__global__ void __launch_bounds__(kTileThreads) scan_tiles_kernel(const T* in, T* out, int n, bool vectors,
                                                                  T* tile_totals) {
  __shared__ T warp_totals[kTileWarps];
  const long long start = static_cast<long long>(blockIdx.x) * kTile;
  T v[kPieces][4];
  load_tile(in, start, n, vectors, v);
  const T total = scan_tile(v, warp_totals);
  store_tile(out, start, n, vectors, v);
  if (threadIdx.x == 0) tile_totals[blockIdx.x] = total;
}

// Block b adds the inclusive scan of the totals of tiles 0 .. b to tile b + 1.
template <typename T>
__global__ void __launch_bounds__(kTileThreads) add_offsets_kernel(T* out, int n, bool vectors,
                                                                   const T* scanned_totals) {
  const int tile = blockIdx.x + 1;
  const long long start = static_cast<long long>(tile) * kTile;
  const T offset = scanned_totals[tile - 1];
  T v[kPieces][4];
  load_tile(out, start, n, vectors, v);
#pragma unroll
  for (int j = 0; j < kPieces; ++j)
#pragma unroll
    for (int k = 0; k < 4; ++k) v[j][k] = offset + v[j][k];
  store_tile(out, start, n, vectors, v);
}

namespace {
int tiles_for(int n) { return static_cast<int>((static_cast<long long>(n) + kTile - 1) / kTile); }

// Scratch memory for one call, taken from the device's stream-ordered pool and given back in
// stream order after the call's kernels (no synchronisation). The pool keeps what it had
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

template <typename T>
void three_phase(const T* in, T* out, int n, cudaStream_t stream) {
  stepwise::require_at_least(n, 0, "n", "scan_three_phase");
  if (n == 0) return;
  const int tiles = tiles_for(n);
  const bool vectors = aligned16(in) && aligned16(out);
  Scratch scratch(2 * sizeof(T) * tiles, stream);
  T* totals = scratch.at<T>(0);
  T* scanned = scratch.at<T>(sizeof(T) * tiles);
  scan_tiles_kernel<T><<<tiles, kTileThreads, 0, stream>>>(in, out, n, vectors, totals);
  CUDA_CHECK_LAUNCH();
  if (tiles == 1) return;
  blelloch_rows_kernel<T><<<1, kRowThreads, 0, stream>>>(totals, scanned, tiles);  // one row: the totals
  CUDA_CHECK_LAUNCH();
  add_offsets_kernel<T><<<tiles - 1, kTileThreads, 0, stream>>>(out, n, vectors, scanned);
  CUDA_CHECK_LAUNCH();
}
}  // namespace

void scan_three_phase(const int* in, int* out, int n, cudaStream_t stream) { three_phase(in, out, n, stream); }
void scan_three_phase(const float* in, float* out, int n, cudaStream_t stream) { three_phase(in, out, n, stream); }

// -- One pass with decoupled look-back.
// Each tile has one 64-bit status word: the status in the high half, the value's bits in the low
// half, so a reader always sees a status and its value together.
//   0           nothing published yet
//   kAggregate  the tile's own total
//   kPrefix     the sum of everything up to and including the tile (its inclusive prefix)
constexpr unsigned long long kAggregate = 1ull << 32;
constexpr unsigned long long kPrefix = 2ull << 32;

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

// Called by the whole of warp 0: the sum of all tiles before `tile`. Lane l looks at tile
// `end - l`, 32 predecessors at once; the warp waits until none of them shows "nothing yet",
// then adds the aggregates from the nearest tile back to the first one holding a prefix (the
// prefix included) and stops there; without a prefix in the window it moves 32 tiles back.
// Every tile waited for has a smaller index, so its block took its index earlier: it has started
// and, waiting only on smaller indices still, will publish. Before tile 0 counts as a prefix of 0.
template <typename T>
__device__ T look_back(unsigned long long* statuses, int tile) {
  const int lane = threadIdx.x % kWarpSize;
  T exclusive = T(0);
  for (int end = tile - 1;; end -= kWarpSize) {
    const int mine = end - lane;
    unsigned long long word = kPrefix;
    do {
      if (mine >= 0) word = peek(statuses + mine);
    } while (__any_sync(kFullMask, (word >> 32) == 0));
    const unsigned prefixes = __ballot_sync(kFullMask, (word >> 32) == 2);
    const int stop = prefixes ? __ffs(prefixes) - 1 : kWarpSize - 1;  // the nearest prefix
    T value = lane <= stop ? value_of<T>(word) : T(0);
#pragma unroll
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) value += __shfl_xor_sync(kFullMask, value, offset);
    exclusive = value + exclusive;
    if (prefixes) return exclusive;
  }
}

// The tile's exclusive prefix, for every thread of the block: warp 0 publishes the tile's total,
// looks back, then publishes the tile's inclusive prefix. `tile` comes from the atomic counter.
template <typename T>
__device__ T tile_prefix(unsigned long long* statuses, int tile, T total, T* shared_prefix) {
  if (threadIdx.x < kWarpSize) {
    const int lane = threadIdx.x;
    T exclusive = T(0);
    if (tile == 0) {
      if (lane == 0) publish(statuses, kPrefix | bits_of(total));
    } else {
      if (lane == 0) publish(statuses + tile, kAggregate | bits_of(total));  // early: successors may use it
      exclusive = look_back<T>(statuses, tile);
      if (lane == 0) publish(statuses + tile, kPrefix | bits_of(exclusive + total));
    }
    if (lane == 0) *shared_prefix = exclusive;
  }
  __syncthreads();
  return *shared_prefix;
}

// The tile this block scans: the next index of the counter, in the order blocks start (not
// blockIdx.x: the GPU promises no order in which blocks start).
__device__ inline int take_tile(unsigned* counter, int* shared_tile) {
  if (threadIdx.x == 0) *shared_tile = static_cast<int>(atomicAdd(counter, 1u));
  __syncthreads();
  return *shared_tile;
}

template <typename T>
__global__ void __launch_bounds__(kTileThreads) single_pass_kernel(const T* in, T* out, int n, bool vectors,
                                                                   unsigned* counter,
                                                                   unsigned long long* statuses) {
  __shared__ T warp_totals[kTileWarps];
  __shared__ T shared_prefix;
  __shared__ int shared_tile;
  const int tile = take_tile(counter, &shared_tile);
  const long long start = static_cast<long long>(tile) * kTile;
  T v[kPieces][4];
  load_tile(in, start, n, vectors, v);
  const T total = scan_tile(v, warp_totals);
  const T prefix = tile_prefix(statuses, tile, total, &shared_prefix);
#pragma unroll
  for (int j = 0; j < kPieces; ++j)
#pragma unroll
    for (int k = 0; k < 4; ++k) v[j][k] = prefix + v[j][k];
  store_tile(out, start, n, vectors, v);
}

namespace {
// The look-back's state: the tile counter (8 bytes, so the words after it stay aligned), then one
// status word per tile, all zero before the kernel starts.
constexpr std::size_t kCounterBytes = 8;
std::size_t look_back_bytes(int tiles) { return kCounterBytes + sizeof(unsigned long long) * tiles; }

template <typename T>
void single_pass(const T* in, T* out, int n, cudaStream_t stream) {
  stepwise::require_at_least(n, 0, "n", "scan_single_pass");
  if (n == 0) return;
  const int tiles = tiles_for(n);
  Scratch scratch(look_back_bytes(tiles), stream);
  CUDA_CHECK(cudaMemsetAsync(scratch.at<void>(0), 0, look_back_bytes(tiles), stream));
  single_pass_kernel<T><<<tiles, kTileThreads, 0, stream>>>(in, out, n, aligned16(in) && aligned16(out),
                                                            scratch.at<unsigned>(0),
                                                            scratch.at<unsigned long long>(kCounterBytes));
  CUDA_CHECK_LAUNCH();
}
}  // namespace

void scan_single_pass(const int* in, int* out, int n, cudaStream_t stream) { single_pass(in, out, n, stream); }
void scan_single_pass(const float* in, float* out, int n, cudaStream_t stream) { single_pass(in, out, n, stream); }

// ---- Step 3: stream compaction --------------------------------------------------------------
// The single pass again, on keep-flags (1 for an element kept, 0 otherwise): an element's place in
// the output is the count of kept elements before it. Within a warp the flags are counted with
// votes instead of a scan of ints: __ballot_sync gives all 32 lanes' flags of one element slot as
// the bits of one word, and __popc of the bits below a lane counts the lanes before it. Each warp
// gathers its kept elements, in order, in its own part of a __shared__ array; after the look-back
// each warp writes its run to the output in one coalesced stretch. The block that takes the last
// tile knows the total after its look-back and writes *count. `__launch_bounds__(..., 8)` asks
// for 8 resident blocks per multiprocessor, which holds the kernel to 64 registers: on an H100 the
// compiler's free choice (80) left 6 blocks, slower than 8 when this was tuned (that build is not
// kept; the README's figure is the 8-block kernel's).
template <typename T>
__global__ void __launch_bounds__(kTileThreads, 8) compact_kernel(const T* in, T* out, int* count, int n,
                                                                  T threshold, bool vectors, int tiles,
                                                                  unsigned* counter, unsigned long long* statuses) {
  __shared__ int warp_totals[kTileWarps];
  __shared__ int shared_prefix;
  __shared__ int shared_tile;
  __shared__ T kept[kTile];
  const int tile = take_tile(counter, &shared_tile);
  const long long start = static_cast<long long>(tile) * kTile;
  const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
  const unsigned lanes_before = (1u << lane) - 1u;
  T v[kPieces][4];
  load_tile(in, start, n, vectors, v);
  T* warp_kept = kept + warp * (kPieces * kWarpPiece);  // this warp's 1024 elements at most
  int warp_count = 0;                                   // kept by this warp in the pieces before j
#pragma unroll
  for (int j = 0; j < kPieces; ++j) {
    bool keep[4];
    int before = 0, in_piece = 0;  // kept by the lanes before this one / by the whole warp
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      keep[k] = start + tile_offset(j, k) < n && v[j][k] > threshold;
      const unsigned votes = __ballot_sync(kFullMask, keep[k]);
      before += __popc(votes & lanes_before);
      in_piece += __popc(votes);
    }
    int place = warp_count + before;  // a lane's 4 elements are consecutive: they follow each other
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (keep[k]) warp_kept[place++] = v[j][k];
    warp_count += in_piece;
  }
  if (lane == 0) warp_totals[warp] = warp_count;
  __syncthreads();  // every warp's count and kept elements are in shared memory
  int before_warp = 0, total = 0;
#pragma unroll
  for (int w = 0; w < kTileWarps; ++w) {
    if (w < warp) before_warp += warp_totals[w];
    total += warp_totals[w];
  }
  const int prefix = tile_prefix(statuses, tile, total, &shared_prefix);
  T* warp_out = out + prefix + before_warp;
  for (int i = lane; i < warp_count; i += kWarpSize) warp_out[i] = warp_kept[i];
  if (tile == tiles - 1 && threadIdx.x == 0) *count = prefix + total;
}

namespace {
template <typename T>
void compact(const T* in, T* out, int* count, int n, T threshold, cudaStream_t stream) {
  stepwise::require_at_least(n, 0, "n", "compact_greater");
  if (n == 0) {
    CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(int), stream));
    return;
  }
  const int tiles = tiles_for(n);
  Scratch scratch(look_back_bytes(tiles), stream);
  CUDA_CHECK(cudaMemsetAsync(scratch.at<void>(0), 0, look_back_bytes(tiles), stream));
  compact_kernel<T><<<tiles, kTileThreads, 0, stream>>>(in, out, count, n, threshold, aligned16(in), tiles,
                                                        scratch.at<unsigned>(0),
                                                        scratch.at<unsigned long long>(kCounterBytes));
  CUDA_CHECK_LAUNCH();
}
}  // namespace

void compact_greater(const int* in, int* out, int* count, int n, int threshold, cudaStream_t stream) {
  compact(in, out, count, n, threshold, stream);
}
void compact_greater(const float* in, float* out, int* count, int n, float threshold, cudaStream_t stream) {
  compact(in, out, count, n, threshold, stream);
}
