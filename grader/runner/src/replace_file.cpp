#include "replace_file.h"

#include <fstream>
#include <system_error>

namespace runner {

std::string replace_file(const std::filesystem::path& file, const std::string& text) {
  std::error_code error;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), error);
  const std::filesystem::path partial = file.string() + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) return "cannot write " + partial.string();
  }
  std::filesystem::rename(partial, file, error);
  if (error) return "cannot write " + file.string() + ": " + error.message();
  return "";
}

}  // namespace runner
