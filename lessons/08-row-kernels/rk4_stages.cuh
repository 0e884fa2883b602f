#pragma once
// Lesson 08 (given): the classical RK4 step's stages, as device functions both ensemble kernels
// use, and the ensemble launchers' argument check.
#include <stdexcept>
#include <string>

#include "ensemble.h"

// The four RK4 stages s = 0..3: stage s evaluates the tendency at x + stage_step(s) * dt * k_(s-1)
// and adds stage_weight(s) * k_s to the step's sum; the step ends with x + dt / 6 * sum.
// [docs:stages]
__device__ constexpr double stage_step(int s) { return s == 0 ? 0.0 : s == 3 ? 1.0 : 0.5; }
__device__ constexpr double stage_weight(int s) { return s == 1 || s == 2 ? 2.0 : 1.0; }

template <typename Real>
__device__ Real stage_input(Real x, Real k_before, int s, Real dt) {
  return x + static_cast<Real>(stage_step(s)) * dt * k_before;
}
// [docs:end]

// Throws std::invalid_argument, naming `what`, unless members >= 0, steps >= 0 and the model's
// size is from 4 to max_size.
inline void check_ensemble(const char* what, int members, const Lorenz96& model, int steps, int max_size) {
  if (members < 0 || steps < 0 || model.size < 4 || model.size > max_size)
    throw std::invalid_argument(std::string(what) + ": needs members >= 0, steps >= 0 and a model size from 4 to " +
                                std::to_string(max_size) + ", got " + std::to_string(members) + " members, " +
                                std::to_string(steps) + " steps, size " + std::to_string(model.size));
}
