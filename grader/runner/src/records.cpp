#include "records.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

namespace runner {

namespace fs = std::filesystem;

int step_named_in(const std::string& text) {
  static const std::regex step(R"(README\.md step ([0-9]+))");
  std::smatch match;
  return std::regex_search(text, match, step) ? std::stoi(match[1]) : 0;
}

std::vector<Record> load_records(const fs::path& dir) {
  std::vector<Record> records;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    const nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
    if (json.is_discarded() || !json.is_object() || !json.contains("check")) continue;
    Record r;
    r.lesson = json.value("lesson", "");
    r.track = json.value("track", "");
    r.check = json.value("check", "");
    r.status = json.value("status", "FAIL");
    r.measured = json.value("measured", "");
    r.required = json.value("required", "");
    r.detail = json.value("detail", "");
    r.rerun = json.value("rerun", "");
    if (r.status == "TODO") r.step = step_named_in(r.detail);
    records.push_back(r);
  }
  return records;
}

void write_record(const fs::path& dir, const Record& r) {
  fs::create_directories(dir);
  std::string name = r.lesson + "__" + r.check;
  for (char& c : name)
    if (c == '/') c = '_';
  const nlohmann::json json = {{"lesson", r.lesson}, {"track", r.track},       {"check", r.check},
                               {"status", r.status}, {"measured", r.measured}, {"required", r.required},
                               {"detail", r.detail}, {"rerun", r.rerun}};
  std::ofstream(dir / (name + ".json")) << json.dump(2) << "\n";
}

void remove_records(const fs::path& dir, const std::string& lesson) {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && (lesson.empty() || name.rfind(lesson + "__", 0) == 0))
      fs::remove(entry.path(), error);
  }
}

}  // namespace runner
