// broken: the tuned version's direct method with its float4 small-filter kernel (3 x 3 and 5 x 5 filters, width a multiple of 4) run on the rows of whole tiles of 4 only (height rounded down to a multiple of 4): the last 1 to 3 rows are never written, and the rows above them see zeros below the image where its last rows are. Every other shape, and those heights on the other kernels, are right.
// fails: Direct.SmallFiltersOnRowsOfFloat4s
// expect: 37 x 64 image, 3 x 3 filter
// (The rest is the tuned version: solutions/11-fft-convolution/tuned/convolution_tuned.cu.)
#include "convolution.h"
#define convolve_direct tuned_convolve_direct
#include "solutions/11-fft-convolution/tuned/convolution_tuned.cu"
#undef convolve_direct

void convolve_direct(const float* image, int height, int width, const float* filter, int filter_height,
                     int filter_width, float* out, cudaStream_t stream) {
  const bool small_filter = filter_height == filter_width && (filter_height == 3 || filter_height == 5);
  const bool whole_tiles_only = small_filter && rows_fit_float4(image, out, width) && height > 4;
  tuned_convolve_direct(image, whole_tiles_only ? height / 4 * 4 : height, width, filter, filter_height, filter_width,
                        out, stream);
}
