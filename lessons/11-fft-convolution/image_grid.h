#pragma once
// Given, not an exercise: the size checks every function of convolution.h starts with, and the
// 2-D launch shape of one thread per pixel (lesson 03).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "convolution.h"

// Throws std::invalid_argument naming `what` unless 1 <= side <= max.
inline void require_side(int side, int max, const char* what) {
  if (side < 1 || side > max)
    throw std::invalid_argument(std::string(what) + " must be 1 to " + std::to_string(max) + ", got " +
                                std::to_string(side));
}

// The image and filter sizes of convolution.h's limits, or std::invalid_argument.
inline void require_sizes(int height, int width, int filter_height, int filter_width) {
  require_side(height, kMaxImageSide, "the image height");
  require_side(width, kMaxImageSide, "the image width");
  require_side(filter_height, kMaxFilterSide, "the filter height");
  require_side(filter_width, kMaxFilterSide, "the filter width");
}

// Blocks of 32 x 8 threads: a warp along each row, so neighbouring threads read and write
// neighbouring pixels.
inline dim3 block_shape() { return dim3(32, 8); }

// Enough blocks for one thread per element of a height x width array, rounded up each way.
inline dim3 grid_for(int height, int width) {
  const dim3 block = block_shape();
  return dim3((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
}
