// Reading the student's device code for double arithmetic (grader/machine_code.h).
#include "grader/machine_code.h"

#include <cxxabi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "grader/trace.h"
#include "stepwise/not_implemented.h"
#include "stepwise/todo.h"

namespace grader {
namespace {

std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const auto end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

// The instructions that compute with a double operand or result (see fp64_in_ptx).
const std::set<std::string>& fp64_arithmetic() {
  static const std::set<std::string> ops{"add",  "sub",      "mul", "fma",  "mad", "div",  "rcp",   "sqrt",
                                         "rsqrt", "neg",     "abs", "min",  "max", "copysign", "set", "setp",
                                         "testp", "cvt"};
  return ops;
}

// The function a PTX header line declares (".visible .entry _Z3fooPf(", ".func  (.param .b32
// func_retval0) _Z3cndf("), or "" when the line declares none.
std::string function_declared(const std::string& line, bool& kernel) {
  static const std::regex header(R"(^(?:\.(?:visible|weak|extern)\s+)*\.(entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][A-Za-z0-9_$]*))");
  std::smatch match;
  if (!std::regex_search(line, match, header)) return "";
  kernel = match[1] == "entry";
  return match[2];
}

std::string demangled(const std::string& mangled) {
  int status = 0;
  char* text = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || text == nullptr) return mangled;
  std::string name = text;
  std::free(text);
  return name;
}

// A kernel's double arithmetic with that of the functions it calls, each function counted once.
void add_calls(const std::map<std::string, DeviceFunction>& functions, const DeviceFunction& function,
               std::set<std::string>& seen, std::map<std::string, int>& total) {
  for (const std::string& callee : function.calls) {
    if (!seen.insert(callee).second) continue;
    const auto found = functions.find(callee);
    if (found == functions.end()) continue;
    for (const auto& [op, count] : found->second.fp64) total[op] += count;
    add_calls(functions, found->second, seen, total);
  }
}

}  // namespace

std::map<std::string, DeviceFunction> fp64_in_ptx(const std::string& ptx) {
  std::map<std::string, DeviceFunction> functions;
  std::istringstream lines(ptx);
  std::string line;
  DeviceFunction current;
  bool in_header = false;
  int depth = 0;          // braces open in the current function's body
  std::string statement;  // a call, gathered up to its ';'
  static const std::regex identifier(R"([A-Za-z_$][A-Za-z0-9_$]*)");
  while (std::getline(lines, line)) {
    const std::string text = trim(line.substr(0, line.find("//")));
    if (text.empty()) continue;
    if (depth == 0) {
      bool kernel = false;
      const std::string name = function_declared(text, kernel);
      if (!name.empty()) {
        current = DeviceFunction{name, kernel, {}, {}};
        in_header = true;
      }
      if (!in_header) continue;
      if (text.back() == ';' && text.find('{') == std::string::npos) {  // a declaration, no body
        in_header = false;
        continue;
      }
      if (text.find('{') == std::string::npos) continue;
      in_header = false;
    }
    for (char c : text) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (depth <= 0) {
      depth = 0;
      if (!current.mangled.empty()) functions[current.mangled] = current;
      current = DeviceFunction{};
      continue;
    }
    if (!statement.empty() || text.rfind("call", 0) == 0) {
      statement += " " + text;
      if (text.find(';') != std::string::npos) {
        for (std::sregex_iterator it(statement.begin(), statement.end(), identifier), end; it != end; ++it)
          current.calls.push_back(it->str());
        statement.clear();
      }
      continue;
    }
    if (text[0] == '.' || text[0] == '{' || text[0] == '}' || text.back() == ':') continue;  // directive, label
    std::string instruction = text;
    if (instruction[0] == '@') instruction = trim(instruction.substr(instruction.find_first_of(" \t") + 1));
    const std::string opcode = instruction.substr(0, instruction.find_first_of(" \t;"));
    std::vector<std::string> parts;
    std::stringstream split(opcode);
    for (std::string part; std::getline(split, part, '.');) parts.push_back(part);
    if (parts.empty() || !fp64_arithmetic().count(parts[0])) continue;
    bool f64 = false;
    for (std::size_t i = 1; i < parts.size(); ++i) f64 = f64 || parts[i] == "f64";
    if (f64) ++current.fp64[parts[0] + ".f64"];
  }
  return functions;
}

std::vector<std::string> virtual_architectures(const std::string& cmake_architectures) {
  std::set<std::string> found;
  static const std::regex entry(R"(^([0-9]+[a-z]?)(-real|-virtual)?$)");  // 90, 90a-real, 75-virtual
  std::string list = cmake_architectures;
  std::replace(list.begin(), list.end(), ';', ',');
  std::istringstream entries(list);
  for (std::string item; std::getline(entries, item, ',');) {
    item = trim(item);
    if (item.empty()) continue;
    std::smatch match;
    if (!std::regex_match(item, match, entry)) return {};  // native, all, all-major, OFF: nvcc decides
    found.insert(match[1]);
  }
  return {found.begin(), found.end()};
}

std::vector<std::string> device_code_files(const std::string& dir, const std::vector<std::string>& sources,
                                           const std::vector<std::string>& architectures) {
  namespace fs = std::filesystem;
  std::set<std::string> stems;
  for (const std::string& source : sources) stems.insert(fs::path(source).stem().string());
  const std::set<std::string> built(architectures.begin(), architectures.end());
  static const std::regex architecture(R"(\.compute_([0-9]+[a-z]?)$)");  // my.file.compute_90a
  std::vector<std::string> files;
  std::error_code error;
  if (dir.empty() || !fs::is_directory(dir, error)) return files;
  std::set<std::string> plain;                                   // the stems with a <stem>.ptx
  std::map<std::string, std::vector<std::string>> per_architecture;  // stem -> its <stem>.compute_*.ptx
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (entry.path().extension() != ".ptx") continue;
    const std::string stem = entry.path().stem().string();
    std::smatch match;
    if (stems.count(stem)) {
      plain.insert(stem);
      if (built.size() <= 1) files.push_back(entry.path().string());  // one architecture, or not known
    } else if (std::regex_search(stem, match, architecture) &&
               stems.count(stem.substr(0, stem.size() - match[0].length())) &&
               (built.empty() || built.count(match[1]))) {
      per_architecture[stem.substr(0, stem.size() - match[0].length())].push_back(entry.path().string());
    }
  }
  // Several architectures: only <stem>.compute_<arch>.ptx of each; one: <stem>.ptx, or where nvcc
  // named it otherwise (none), its <stem>.compute_<arch>.ptx; not known: all of them.
  for (const auto& [stem, named] : per_architecture)
    if (built.size() != 1 || !plain.count(stem)) files.insert(files.end(), named.begin(), named.end());
  std::sort(files.begin(), files.end());
  return files;
}

void expect_float_arithmetic(const std::string& float_kernels, const std::function<void()>& steps) {
  expect_float_arithmetic_in(students_device_code(), float_kernels, steps);
}

void expect_header_float_arithmetic(const std::string& float_kernels, const std::function<void()>& steps) {
  expect_float_arithmetic_in(checks_device_code(), float_kernels, steps);
}

void expect_float_arithmetic_in(const DeviceCode& code, const std::string& float_kernels,
                                const std::function<void()>& steps) {
  // First the steps on empty input: one not written yet makes the check TODO, whatever kernels
  // the exercise's unwritten code holds (or lacks).
  try {
    steps();
  } catch (const stepwise::NotImplemented&) {
    throw;  // a float step not written yet: the check is TODO
  } catch (const std::exception&) {
    // Anything else (no GPU to launch on, a CUDA error) is for the other checks to report.
  }
  // Only the PTX of the files and architectures compiled now: a file renamed or removed, or an
  // architecture no longer built, leaves its PTX behind.
  const std::vector<std::string> files = device_code_files(code.dir, code.sources, code.architectures);
  if (files.empty()) {
    std::string names;
    for (const std::string& source : code.sources)
      names += (names.empty() ? "" : ", ") + std::filesystem::path(source).stem().string() + "*.ptx";
    GTEST_SKIP() << "the device code nvcc made from " << code.whose << " is not there to read (looked for "
                 << (names.empty() ? std::string("*.ptx") : names) << " in '"
                 << (code.dir.empty() ? std::string("(no folder: this test program was built without it)") : code.dir)
                 << "'): build the grader again (cmake --build build) and re-run this check";
  }

  // Every kernel built from the code, with the double arithmetic of all its PTX (one file for
  // each virtual architecture built: the largest count of each instruction).
  const std::set<std::string> students(code.kernels.begin(), code.kernels.end());
  std::map<std::string, std::map<std::string, int>> kernels;
  for (const std::string& file : files) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const auto functions = fp64_in_ptx(text.str());
    for (const auto& [name, function] : functions) {
      if (!function.kernel || !students.count(name)) continue;
      std::map<std::string, int> total = function.fp64;
      std::set<std::string> seen{name};
      add_calls(functions, function, seen, total);
      auto& kept = kernels[name];
      for (const auto& [op, count] : total) kept[op] = std::max(kept[op], count);
    }
  }

  const std::regex pattern(float_kernels);
  int checked = 0;
  std::ostringstream failures, found;
  for (const auto& [mangled, ops] : kernels) {
    const std::string name = demangled(mangled);
    found << "\n    " << name;
    if (!std::regex_search(name, pattern)) continue;
    ++checked;
    if (ops.empty()) continue;
    failures << "\n  your kernel `" << kernel_display_name(name) << "` does double arithmetic (";
    const char* separator = "";
    for (const auto& [op, count] : ops) {
      failures << separator << count << " " << op;
      separator = ", ";
    }
    failures << ")";
  }
  if (!failures.str().empty())
    FAIL() << "a float step must compute in float:" << failures.str()
           << "\n  Each .f64 instruction runs as double-precision machine code (DADD, DMUL, DFMA; cvt as F2F, I2F, "
              "F2I), at 1/32 to 1/64 of the float rate on most GPUs. Typical causes: a literal without f (write "
              "0.5f, not 0.5; 1.0f / x, not 1.0 / x), a double function or constant (expf, logf, sqrtf, fabsf on "
              "floats, not exp, log, sqrt, fabs of a double; static_cast<float>(kA1) for a double constant), or "
              "a double variable or argument in the expression.";
  if (checked == 0)
    FAIL() << "found no kernel of yours matching `" << float_kernels
           << "` to check for double arithmetic; the kernels nvcc built from " << code.whose << ":"
           << (found.str().empty() ? std::string("\n    (none)") : found.str())
           << "\n  Keep the kernel names the exercise gives.";
}

}  // namespace grader
