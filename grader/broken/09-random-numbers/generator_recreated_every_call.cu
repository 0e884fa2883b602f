// broken: generate_uniform makes, seeds and destroys a new generator on every call. It even starts the new one where the last call ended (curandSetGeneratorOffset), so the numbers are right and only the time is wrong.
// fails: RandomSpeed.XorwowFillNearCurand:RandomSpeed.PhiloxFillNearCurand
// expect: too slow for '09-random-numbers/RandomSpeed.*FillNearCurand'
// (The rest is the reference solution.)
#include <map>

#include "random_numbers.h"
#define create_generator reference_create_generator
#define generate_uniform reference_generate_uniform
#include "solutions/09-random-numbers/random_numbers.cu"
#undef create_generator
#undef generate_uniform

namespace {
struct Recipe {
  Rng rng;
  unsigned long long seed;
  unsigned long long generated = 0;
};
std::map<curandGenerator_t, Recipe>& recipes() {
  static std::map<curandGenerator_t, Recipe> all;
  return all;
}
}  // namespace

curandGenerator_t create_generator(Rng rng, unsigned long long seed) {
  curandGenerator_t generator = reference_create_generator(rng, seed);
  recipes()[generator] = Recipe{rng, seed};
  return generator;
}

void generate_uniform(curandGenerator_t generator, float* out, std::size_t n) {
  if (n == 0) return;
  Recipe& recipe = recipes().at(generator);
  curandGenerator_t fresh = reference_create_generator(recipe.rng, recipe.seed);
  CURAND_CHECK(curandSetGeneratorOffset(fresh, recipe.generated));
  CURAND_CHECK(curandGenerateUniform(fresh, out, n));
  CURAND_CHECK(curandDestroyGenerator(fresh));
  recipe.generated += n;
}
