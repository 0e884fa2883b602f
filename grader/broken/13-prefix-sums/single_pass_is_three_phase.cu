// broken: the "single-pass" scan is the three-phase scan (three kernels, the array read and written twice): right, and not the step.
// fails: WholeScan.SinglePassInt
// expect: launched 3 kernels of yours: the single-pass scan is one kernel
// (The rest is the reference solution.)
#include "scan.h"
#define scan_single_pass reference_scan_single_pass
#include "solutions/13-prefix-sums/scan.cu"
#undef scan_single_pass

void scan_single_pass(const int* in, int* out, int n, cudaStream_t stream) { scan_three_phase(in, out, n, stream); }
void scan_single_pass(const float* in, float* out, int n, cudaStream_t stream) { scan_three_phase(in, out, n, stream); }
