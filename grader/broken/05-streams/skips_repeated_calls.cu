// broken: right, but a pipeline call with the same buffers and size as the call before returns at once ("the results are still there"), so timing repeated calls times nothing.
// fails: PipelineSpeed.NearItsBound
// expect: output of the timed call is wrong: was the work skipped
// (The rest is the reference solution.)
#include "grader/broken/tricks.h"
#include "streams.h"
#define transform_pipelined reference_transform_pipelined
#include "solutions/05-streams/streams.cu"
#undef transform_pipelined

void transform_pipelined(const float* in, float* out, float* d_in, float* d_out, int n, int work, int chunks,
                         Timeline* timeline) {
  if (broken::same_as_last_call(in, out, n)) return;
  reference_transform_pipelined(in, out, d_in, d_out, n, work, chunks, timeline);
}
