// broken: the "Blelloch" row scan launches the Hillis-Steele kernel: right, but not the work-efficient scan the step asks for, and no kernel of its own.
// fails: RowScan.BlellochInt
// expect: ran `[^`]*hillis_steele_rows_kernel[^`]*`, the kernel of step 1 \(scan_rows_hillis_steele\)
// (The rest is the reference solution.)
#include "scan.h"
#define scan_rows_blelloch reference_scan_rows_blelloch
#include "solutions/13-prefix-sums/scan.cu"
#undef scan_rows_blelloch

void scan_rows_blelloch(const int* in, int* out, int rows, int cols, cudaStream_t stream) {
  launch_rows(hillis_steele_rows_kernel<int>, in, out, rows, cols, stream, "scan_rows_blelloch");
}
void scan_rows_blelloch(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch_rows(hillis_steele_rows_kernel<float>, in, out, rows, cols, stream, "scan_rows_blelloch");
}
