#pragma once
// Lesson 09: random numbers on the GPU with cuRAND. The host API fills device memory with
// uniform floats (seed 000's pyculib PRNG); a Monte Carlo estimate of pi uses them; then the
// device API draws the numbers inside the kernel that uses them, so none touches memory.
#include <curand.h>

#include <cstddef>

#include "curand_check.h"

// The two generators of this lesson. XORWOW is cuRAND's default (and pyculib's PRNG.XORWOW);
// Philox4x32-10 is counter-based: its state is a counter and a key, cheap to start anywhere.
enum class Rng { xorwow, philox };

// ---- Step 1: the host API ----------------------------------------------------------------------

// A cuRAND generator of the given kind, created on the GPU (curandCreateGenerator) and seeded.
// The caller destroys it with curandDestroyGenerator (UniformGenerator below does).
curandGenerator_t create_generator(Rng rng, unsigned long long seed);

// n uniform floats into device memory `out` from `generator`, continuing its sequence: each
// value is in (0, 1], 0 excluded and 1 included. Returns without waiting for the GPU; n == 0
// does nothing.
void generate_uniform(curandGenerator_t generator, float* out, std::size_t n);

// A generator made once and kept: every fill() continues the same sequence. Making a generator
// costs far more than filling a buffer with it (README: "Keep the generator").
class UniformGenerator {
 public:
  UniformGenerator(Rng rng, unsigned long long seed) : handle_(create_generator(rng, seed)) {}
  ~UniformGenerator() {
    if (handle_ != nullptr) curandDestroyGenerator(handle_);
  }
  UniformGenerator(const UniformGenerator&) = delete;
  UniformGenerator& operator=(const UniformGenerator&) = delete;

  void fill(float* out, std::size_t n) { generate_uniform(handle_, out, n); }
  curandGenerator_t handle() const { return handle_; }

 private:
  curandGenerator_t handle_ = nullptr;
};

// ---- Step 2: pi with the host API ---------------------------------------------------------------

// Monte Carlo: n points uniform in the unit square, of which a fraction pi/4 falls inside the
// quarter circle x*x + y*y <= 1. Returns 4 * hits / n, after waiting for the GPU.
//
// The host-API pipeline: generator.fill() writes 2n uniforms into the device buffer `uniforms`
// (at least 2n floats, overwritten; point i is (uniforms[2i], uniforms[2i + 1])), then a kernel
// counts the hits with one atomic add per block. Throws std::invalid_argument when n == 0.
double estimate_pi_host_api(UniformGenerator& generator, float* uniforms, std::size_t n);

// ---- Step 3: pi with the device API ---------------------------------------------------------------

// Points are drawn in runs of kPointsPerRun: run r holds points r * kPointsPerRun onward (the
// last run may be shorter), and draws them from its own Philox4x32-10 state,
//   curand_init(seed, r, 0, &state)          (subsequence r, offset 0),
// two points per curand_uniform4(&state): (v.x, v.y), then (v.z, v.w). A point is a hit when
// x * x + y * y <= 1.0f. The result depends only on seed and n, not on the GPU or the grid.
constexpr int kPointsPerRun = 256;

// The same estimate as step 2, with the numbers drawn in registers by the kernel that counts
// them: no random number is written to memory. Waits for the GPU. Throws std::invalid_argument
// when n == 0.
double estimate_pi_device_api(unsigned long long seed, std::size_t n);
