// A lesson whose README has drifted from its code: lint/docs-code-rejects-stale-docs runs the
// docs code lint here and expects it to report every problem below.

// [docs:scale]
__global__ void scale(const float* x, float factor, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] * factor;
}
// [docs:end]

// [docs:signature]
void scale_array(const float* x, float factor, float* out, int n);
// [docs:end]

// [docs:orphan]
// a region no document shows
// [docs:end]

// [docs:unclosed]
int never_ended = 0;
