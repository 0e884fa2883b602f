#include "stepwise/image.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

// stb is header-only: exactly one source file of a program compiles its implementation.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_write.h>

namespace stepwise {

Image read_image(const std::string& path, int channels) {
  Image image;
  int stored_channels = 0;
  stbi_uc* pixels = stbi_load(path.c_str(), &image.width, &image.height, &stored_channels, channels);
  if (pixels == nullptr)
    throw std::runtime_error("cannot read image '" + path + "': " + stbi_failure_reason());
  image.channels = channels != 0 ? channels : stored_channels;
  image.pixels.assign(pixels, pixels + static_cast<std::size_t>(image.width) * image.height * image.channels);
  stbi_image_free(pixels);
  return image;
}

void write_png(const std::string& path, const Image& image) {
  const std::size_t expected = static_cast<std::size_t>(image.width) * image.height * image.channels;
  if (image.width <= 0 || image.height <= 0 || image.channels < 1 || image.channels > 4 ||
      image.pixels.size() != expected)
    throw std::invalid_argument("write_png: " + std::to_string(image.width) + "x" +
                                std::to_string(image.height) + "x" + std::to_string(image.channels) +
                                " image with " + std::to_string(image.pixels.size()) + " values");
  const int stride = image.width * image.channels;
  const std::string part = path + ".part";
  if (stbi_write_png(part.c_str(), image.width, image.height, image.channels, image.pixels.data(), stride) == 0 ||
      std::rename(part.c_str(), path.c_str()) != 0) {
    std::remove(part.c_str());
    throw std::runtime_error("cannot write '" + path + "': does its folder exist, and may you write there?");
  }
}

void require_writable(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path file(path);
  const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
  std::error_code error;
  const bool folder_ok = fs::is_directory(folder, error) && access(folder.c_str(), W_OK) == 0;
  const bool file_ok = !fs::exists(file, error) || (fs::is_regular_file(file, error) && access(file.c_str(), W_OK) == 0);
  if (!folder_ok || !file_ok)
    throw std::invalid_argument("cannot write '" + path + "': does its folder exist, and may you write there?");
}

}  // namespace stepwise
