// Lesson 06, step 4 (stretch): register blocking. Read README.md "Step 4" first.
#include "shared_matmul.h"

#include "stepwise/check.h"
#include "stepwise/todo.h"

// TODO(step 4): write a kernel in which a block of 256 threads computes a 128 x 128 tile of C
// and each thread an 8 x 8 piece of it, held in a float acc[8][8] in registers:
//   - shared memory holds a 128 x 8 tile of A, stored transposed (tile_a[p][i] = A(i, p)), and
//     an 8 x 128 tile of B; each thread loads one float4 of each per tile;
//   - for each p of the tile, a thread reads its 8 values of A and 8 of B from shared memory
//     (as float4s) and does acc[i][j] += a_i * b_j for all 64 pairs;
//   - loads outside the matrices give zeros and stores outside C are skipped, so that any m, n,
//     k works (a second, unchecked version for whole tiles is how you get the speed);
//   - indices into A, B and C in 64 bits, as in step 1 (static_cast<size_t>(row) * n + col): C
//     may have more than 2^31 elements, in both versions;
//   - for more speed: two buffers of each tile, the next tile's global loads issued before the
//     current tile's arithmetic (double buffering), __launch_bounds__(256, 2).

void matmul_register_blocked(const float* a, const float* b, float* c, int m, int n, int k) {
  check_matmul_sizes(m, n, k);
  // TODO(step 4): return when m or n is 0; launch your kernel with 256 threads per block on a
  // grid of ceil(n / 128) x ceil(m / 128) blocks; CUDA_CHECK_LAUNCH(). Delete the line below.
  STEPWISE_TODO(4);
}
