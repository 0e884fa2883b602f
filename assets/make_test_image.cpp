// Makes assets/test-image.png, the grey test image of lesson 11: 512 x 512 pixels (the seed's
// size) with what a convolution shows well: a smooth gradient (which the seed's filter, whose
// taps add up to 0, turns to 0), hard edges of a disc, a bar and a triangle, a checkerboard, and
// rings whose spacing shrinks outwards (a zone plate: every frequency at once). Made by the
// project, not downloaded. Rebuild it with
//   g++ -O2 -std=c++17 -I<folder with stb_image_write.h> assets/make_test_image.cpp -o make_test_image
//   ./make_test_image assets/test-image.png
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace {

constexpr int kSide = 512;

double level(int x, int y) {
  double v = 60 + 50.0 * (x + y) / (2.0 * kSide);  // the gradient
  const double dx = x - 150.0, dy = y - 150.0;
  if (dx * dx + dy * dy < 95.0 * 95.0) v = 215;  // the disc
  if (x >= 300 && x < 470 && y >= 70 && y < 130) v = 25;  // the bar
  if (y >= 160 && y < 250 && std::abs(x - 385) < (y - 160) * 0.9) v = 180;  // the triangle
  if (x >= 300 && x < 460 && y >= 300 && y < 460) v = ((x / 20 + y / 20) % 2) ? 235 : 35;  // the checkerboard
  const double rx = x - 140.0, ry = y - 380.0, r2 = rx * rx + ry * ry;
  if (r2 < 110.0 * 110.0) v = 128 + 100 * std::cos(r2 / 220.0);  // the zone plate
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_test_image OUTPUT.png\n");
    return 64;
  }
  std::vector<std::uint8_t> pixels(kSide * kSide);
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x)
      pixels[y * kSide + x] = static_cast<std::uint8_t>(std::clamp(std::lround(level(x, y)), 0L, 255L));
  if (stbi_write_png(argv[1], kSide, kSide, 1, pixels.data(), kSide) == 0) {
    std::fprintf(stderr, "cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
