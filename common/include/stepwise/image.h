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
// the file cannot be written (missing folder, no permission). The PNG is written next to `path`
// under another name and renamed at the end, so a failed write leaves no partial file.
void write_png(const std::string& path, const Image& image);

// Throws std::invalid_argument, before any work is done, when `path` could not be written later
// (its folder is missing or not writable, or it is a file that is not writable). Creates nothing:
// a demo that fails afterwards leaves no empty file behind.
void require_writable(const std::string& path);

}  // namespace stepwise
