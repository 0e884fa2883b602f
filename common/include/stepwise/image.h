#pragma once
// Reading and writing images (PNG, JPEG, BMP, ...) through stb_image. Pixels are 8-bit, rows
// top to bottom, channels interleaved (RGB: r0 g0 b0 r1 g1 b1 ...).
#include <cstdint>
#include <string>
#include <vector>

namespace stepwise {

struct Image {
  int width = 0;
  int height = 0;
  int channels = 0;  // 1 grey, 3 RGB, 4 RGBA
  std::vector<std::uint8_t> pixels;  // width * height * channels values
};

// Throws std::runtime_error naming the path and the reason when the file cannot be read.
Image read_image(const std::string& path, int channels = 0 /* 0: as stored */);

// Writes a PNG. Throws std::invalid_argument for inconsistent sizes and std::runtime_error when
// the file cannot be written (missing folder, no permission).
void write_png(const std::string& path, const Image& image);

}  // namespace stepwise
