#pragma once
// SplitMix64, a counter-based hash: value i of draw d is splitmix(d ^ splitmix(i)), so the values
// of one draw can be made in any order, on the CPU or the GPU, and STEPWISE_SEED repeats them.
#include <cstdint>

#if defined(__CUDACC__)
#define GRADER_HOST_DEVICE __host__ __device__
#else
#define GRADER_HOST_DEVICE
#endif

namespace grader {

GRADER_HOST_DEVICE inline std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Value i of draw `draw`: 64 random bits.
GRADER_HOST_DEVICE inline std::uint64_t draw_bits(std::uint64_t draw, std::uint64_t i) { return splitmix(draw ^ splitmix(i)); }

// A number in [0, 1) from the top 53 bits.
GRADER_HOST_DEVICE inline double unit_interval(std::uint64_t bits) { return (bits >> 11) * (1.0 / 9007199254740992.0); }

// A value in [lo, lo + span) of type T: rounding to T can land on lo + span itself, which is
// moved to lo to keep the interval half-open.
template <typename T>
GRADER_HOST_DEVICE inline T uniform_value(std::uint64_t bits, double lo, double span) {
  T value = static_cast<T>(lo + span * unit_interval(bits));
  if (value >= static_cast<T>(lo + span)) value = static_cast<T>(lo);
  return value;
}

// An integer in [lo, lo + count).
GRADER_HOST_DEVICE inline int uniform_int(std::uint64_t bits, long long lo, unsigned long long count) {
  return static_cast<int>(lo + static_cast<long long>(bits % count));
}

// A new draw number for this process: each call gives another, following from seed().
std::uint64_t next_draw();

}  // namespace grader
