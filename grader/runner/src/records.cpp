#include "records.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "grader/record_fields.h"
#include "grader/record_name.h"

namespace runner {

namespace fs = std::filesystem;
namespace field = grader::record_field;

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
    if (json.is_discarded() || !json.is_object() || !json.contains(field::check)) continue;
    auto number = [&json](const char* key) -> std::optional<double> {
      if (json.contains(key) && json[key].is_number()) return json[key].get<double>();
      return std::nullopt;
    };
    Record r;
    r.lesson = json.value(field::lesson, "");
    r.track = json.value(field::track, "");
    r.check = json.value(field::check, "");
    r.status = json.value(field::status, "FAIL");
    r.measured = json.value(field::measured, "");
    r.required = json.value(field::required, "");
    r.detail = json.value(field::detail, "");
    r.rerun = json.value(field::rerun, "");
    r.figure = number(field::figure);
    r.minimum = number(field::minimum);
    r.seconds = number(field::seconds);
    r.unit = json.value(field::unit, "");
    r.key = json.value(field::key, "");
    r.seed = json.value(field::seed, "");
    r.gpu = json.value(field::gpu, "");
    r.gpu_too_small = json.value(field::gpu_too_small, false);
    r.held_gpu_alone = json.value(field::held_gpu_alone, false);
    r.held_gpu_alone_for_memory = json.value(field::held_gpu_alone_for_memory, false);
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
  nlohmann::json json = {{field::lesson, r.lesson},     {field::track, r.track},      {field::check, r.check},
                         {field::status, r.status},     {field::measured, r.measured}, {field::required, r.required},
                         {field::detail, r.detail},     {field::rerun, r.rerun}};
  if (r.figure) json[field::figure] = *r.figure;
  if (r.minimum) json[field::minimum] = *r.minimum;
  if (r.seconds) json[field::seconds] = *r.seconds;
  if (r.gpu_too_small) json[field::gpu_too_small] = true;
  if (r.held_gpu_alone) json[field::held_gpu_alone] = true;
  if (r.held_gpu_alone_for_memory) json[field::held_gpu_alone_for_memory] = true;
  for (const auto& [name, value] :
       {std::pair{field::unit, &r.unit}, {field::key, &r.key}, {field::seed, &r.seed}, {field::gpu, &r.gpu}})
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
