#include "records.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "grader/record_name.h"

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
    if (json.contains("figure") && json["figure"].is_number()) r.figure = json["figure"].get<double>();
    if (json.contains("minimum") && json["minimum"].is_number()) r.minimum = json["minimum"].get<double>();
    if (json.contains("seconds") && json["seconds"].is_number()) r.seconds = json["seconds"].get<double>();
    r.unit = json.value("unit", "");
    r.key = json.value("key", "");
    r.seed = json.value("seed", "");
    r.gpu = json.value("gpu", "");
    if (r.status == "TODO") r.step = step_named_in(r.detail);
    records.push_back(r);
  }
  return records;
}

fs::path record_file(const fs::path& dir, const std::string& lesson, const std::string& check) {
  return dir / grader::record_file_name(lesson, check);
}

void write_record(const fs::path& dir, const Record& r) {
  fs::create_directories(dir);
  nlohmann::json json = {{"lesson", r.lesson}, {"track", r.track},       {"check", r.check},
                         {"status", r.status}, {"measured", r.measured}, {"required", r.required},
                         {"detail", r.detail}, {"rerun", r.rerun}};
  if (r.figure) json["figure"] = *r.figure;
  if (r.minimum) json["minimum"] = *r.minimum;
  if (r.seconds) json["seconds"] = *r.seconds;
  for (const auto& [name, value] : {std::pair{"unit", &r.unit}, {"key", &r.key}, {"seed", &r.seed}, {"gpu", &r.gpu}})
    if (!value->empty()) json[name] = *value;
  std::ofstream(record_file(dir, r.lesson, r.check)) << json.dump(2) << "\n";
}

void remove_records(const fs::path& dir, const std::string& lesson) {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (lesson.empty() ? entry.path().extension() == ".json" : grader::is_record_of(name, lesson))
      fs::remove(entry.path(), error);
  }
}

}  // namespace runner
