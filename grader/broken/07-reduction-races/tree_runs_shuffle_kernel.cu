// broken: the "tree" sum launches step 4's shuffle kernel (through sum_shuffle): right and fast, but no tree in shared memory and no kernel of its own.
// fails: SumTree.MatchesReferenceAtEverySize
// expect: step 3 \(sum_tree\) .*ran `sum_shuffle_kernel`, the kernel of step 4 \(sum_shuffle\)
// (The rest is the reference solution.)
#include "reduction.h"
#define sum_tree reference_sum_tree
#include "solutions/07-reduction-races/reduction.cu"
#undef sum_tree

void sum_tree(const float* x, int n, float* sum) { sum_shuffle(x, n, sum); }
