#include "grader/requirements.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace grader {
namespace {

std::string requirements_path() {
  if (const char* path = std::getenv("STEPWISE_REQUIREMENTS")) return path;
  return STEPWISE_DEFAULT_REQUIREMENTS;  // grader/requirements.txt in the source tree
}

}  // namespace

double speed_scale() {
  const char* text = std::getenv("STEPWISE_SPEED_SCALE");
  if (text == nullptr || *text == '\0') return 1.0;
  char* end = nullptr;
  const double scale = std::strtod(text, &end);
  if (*end != '\0' || !(scale > 0) || !std::isfinite(scale))
    throw std::runtime_error(std::string("STEPWISE_SPEED_SCALE must be a positive number, got '") +
                             text + "'");
  return scale;
}

std::string Requirement::describe() const {
  char text[64];
  std::snprintf(text, sizeof text, ">= %.3g ", minimum);
  return text + meaning;
}

Requirement requirement(const std::string& key) {
  const std::string path = requirements_path();
  std::ifstream file(path);
  if (!file)
    throw std::runtime_error("cannot read the requirements file '" + path +
                             "' (STEPWISE_REQUIREMENTS names another)");
  // Every line is checked, so a malformed line is reported whichever check asks.
  Requirement found;
  bool seen = false;
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    std::string name;
    if (!(fields >> name)) continue;  // blank or comment
    double minimum = 0;
    if (!(fields >> minimum) || !(minimum >= 0))
      throw std::runtime_error(path + ":" + std::to_string(number) +
                               ": expected '<NN-slug>/<Suite>.<Test> <minimum> <meaning>', got '" + line + "'");
    if (name != key || seen) continue;
    seen = true;
    found.minimum = minimum * speed_scale();
    std::getline(fields >> std::ws, found.meaning);
    while (!found.meaning.empty() && std::isspace(static_cast<unsigned char>(found.meaning.back())))
      found.meaning.pop_back();
  }
  if (!seen) throw std::runtime_error("no requirement '" + key + "' in " + path);
  return found;
}

}  // namespace grader
