#pragma once
// Writing a file that other programs read while it may be rewritten (the course file, a lesson's
// check list): the text goes to <file>.partial first and is renamed over the file, so a reader sees
// the old text or the new, never half of it.
#include <filesystem>
#include <string>

namespace runner {

// Replaces `file` with `text` (creating its folder); "" on success, else what failed, in words.
std::string replace_file(const std::filesystem::path& file, const std::string& text);

}  // namespace runner
