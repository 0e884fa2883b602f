#include "write_json.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "replace_file.h"

namespace runner {

namespace {

using Json = nlohmann::ordered_json;

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

Json::json_pointer pointer(const std::string& text, const std::string& fact) {
  try {
    return Json::json_pointer(text);
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument("'" + fact + "' is not <pointer>=<text>, <pointer>[] or <pointer>{} (a pointer starts with '/')");
  }
}

}  // namespace

Json json_of_facts(const std::vector<std::string>& facts) {
  Json json = Json::object();
  for (const std::string& fact : facts) {
    const std::size_t equals = fact.find('=');
    const bool empty_member = equals == std::string::npos && (ends_with(fact, "[]") || ends_with(fact, "{}"));
    if (equals == std::string::npos && !empty_member)
      throw std::invalid_argument("'" + fact + "' is not <pointer>=<text>, <pointer>[] or <pointer>{}");
    const Json::json_pointer where = pointer(fact.substr(0, empty_member ? fact.size() - 2 : equals), fact);
    try {
      Json& member = json[where];
      if (!empty_member)
        member = fact.substr(equals + 1);
      else if (member.is_null())
        member = ends_with(fact, "[]") ? Json::array() : Json::object();
    } catch (const nlohmann::json::exception& error) {  // e.g. a pointer through a string
      throw std::invalid_argument("'" + fact + "': " + error.what());
    }
  }
  return json;
}

int run_write_json(const std::filesystem::path& file, const std::vector<std::string>& facts) {
  std::string text;
  try {
    // A name that is not UTF-8 (a student's file) is written with U+FFFD for its bad bytes, as
    // CMake's own JSON writer did, rather than failing the build.
    text = json_of_facts(facts).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  } catch (const std::invalid_argument& error) {
    std::cerr << "stepwise write-json " << file.string() << ": " << error.what() << "\n";
    return 1;
  }
  std::ostringstream before;
  before << std::ifstream(file, std::ios::binary).rdbuf();
  if (before.str() == text) return 0;
  const std::string failed = replace_file(file, text);
  if (!failed.empty()) {
    std::cerr << "stepwise write-json: " << failed << "\n";
    return 1;
  }
  return 0;
}

}  // namespace runner
