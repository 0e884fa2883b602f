#pragma once
// Lesson 08, steps 4 and 5: an ensemble of independent model runs (seed 003's 40 forecast
// members, and thousands), each integrating its own state of the Lorenz-96 model with RK4.
//
// Lorenz-96 is a ring of N variables, x[j] for j = 0 .. N-1 (indices wrap around), with
//   dx[j]/dt = (x[j+1] - x[j-2]) * x[j-1] - x[j] + F
// and one classical RK4 step of length dt is
//   k1 = f(x), k2 = f(x + dt/2 k1), k3 = f(x + dt/2 k2), k4 = f(x + dt k3)
//   x  = x + dt/6 (k1 + 2 k2 + 2 k3 + k4).
//
// States are row-major, one row per member: member m's variable j is at [m * model.size + j].
// The launchers take device pointers, launch on `stream` and return without waiting. `initial`
// is only read; `final` receives every member's state after `steps` steps. Members never
// interact: each is a row of its own (the gufunc idea of steps 1-3, for a whole model).
// Bad arguments (members < 0, steps < 0, a size out of range) throw std::invalid_argument
// before anything is launched; members == 0 launches nothing.
#include <cuda_runtime.h>

struct Lorenz96 {
  int size = 40;          // N: the variables on the ring (Lorenz's own choice), at least 4
  double forcing = 8.0;   // F: 8 makes the model chaotic
  double dt = 0.01;       // the time step (0.05 is Lorenz's "6 hours")
};

// Step 4: one block per member, one thread per variable, the state in shared memory.
// model.size from 4 to kMaxBlockMemberSize.
constexpr int kMaxBlockMemberSize = 1024;
template <typename Real>
void ensemble_block_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                               cudaStream_t stream = nullptr);

// Step 5: one thread per member, the whole state in that thread's own arrays.
// model.size from 4 to kMaxThreadMemberSize.
constexpr int kMaxThreadMemberSize = 64;
template <typename Real>
void ensemble_thread_per_member(const Real* initial, Real* final, int members, Lorenz96 model, int steps,
                                cudaStream_t stream = nullptr);
