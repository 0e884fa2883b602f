// broken: the pipeline remembers the pointers and size of its last call and returns at once when called with the same ones again
// fails: PipelineSpeed.NearItsBound
// expect: output of the timed call is wrong
#include "streams.h"
#define transform_pipelined reference_transform_pipelined
#include "solutions/05-streams/streams.cu"
#undef transform_pipelined

void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline) {
  static const float* last_in = nullptr;
  static float* last_out = nullptr;
  static int last_n = -1;
  if (in == last_in && out == last_out && n == last_n) return;  // "the same call again"
  reference_transform_pipelined(in, out, d_in, d_out, n, work, chunks, timeline);
  last_in = in;
  last_out = out;
  last_n = n;
}
