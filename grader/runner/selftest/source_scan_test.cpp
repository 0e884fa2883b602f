// The source scan of a student's graded files (source_scan.h): each kind of code it must flag, with
// its line; nothing in comments or strings; no flag on the reference solutions or on the sample
// class's honest students.
#include <gtest/gtest.h>

#include <filesystem>

#include "source_scan.h"

namespace fs = std::filesystem;
using runner::Finding;
using runner::scan_file;
using runner::scan_source;

namespace {

std::string findings(const std::string& code) {
  std::string out;
  for (const Finding& f : scan_source(code, "f.cu")) out += f.where() + " " + f.what + "\n";
  return out;
}

void expect_flag(const std::string& code, const std::string& wanted) {
  const std::string found = findings(code);
  EXPECT_NE(found.find(wanted), std::string::npos) << "code:\n" << code << "\nfindings:\n" << found;
}

std::string scan_tree(const fs::path& root) {
  std::string out;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cu" && ext != ".cuh" && ext != ".cpp" && ext != ".h")) continue;
    for (const Finding& f : scan_file(entry.path(), fs::relative(entry.path(), root).string()))
      out += f.where() + " " + f.what + "\n";
  }
  return out;
}

}  // namespace

TEST(SourceScan, CodeThatRunsBeforeMain) {
  expect_flag("int x;\n__attribute__((constructor)) static void forge() {}\n", "f.cu:2 runs before or after main (__attribute__((constructor)))");
  expect_flag("[[gnu::constructor]] void f() {}\n", "f.cu:1 runs before or after main (gnu::constructor)");
  expect_flag("namespace {\nconst int n = start();\n}\n", "f.cu:2 runs before main (a global's initialiser calls start())");
  expect_flag("static std::string banner(\"hi\");\n", "f.cu:1 runs before main (the global object 'banner' is constructed)");
  expect_flag("struct Forger { Forger(); };\nForger forger{1};\n", "f.cu:2 runs before main (the global object 'forger' is constructed)");
  expect_flag("std::vector<int> table;\n", "f.cu:1 runs before main (the global object 'table' is constructed)");
  expect_flag("static int once = [] { return 1; }();\n", "runs before main (a lambda called in a global's initialiser)");
}

TEST(SourceScan, TheGradersEnvironmentFilesAndTheProcess) {
  expect_flag("void f() { const char* d = getenv(\"X\"); }", "f.cu:1 reads or changes the grader's environment (getenv)");
  expect_flag("extern char** environ;\nvoid f() { char** e = environ; }", "f.cu:2 reads the grader's environment (environ)");
  expect_flag("void f() {\n  std::ifstream in(\"/proc/self/cmdline\");\n}", "f.cu:2 reads /proc");
  expect_flag("auto d = \"STEPWISE_RESULTS_DIR\";", "names the grader's environment");
  expect_flag("void f() { FILE* o = std::fopen(name, \"w\"); }", "writes a file (fopen \"w\")");
  expect_flag("void f() { FILE* o = fopen(name, \"a+\"); }", "writes a file (fopen \"a+\")");
  expect_flag("void f() { FILE* o = fopen(name, mode); }", "opens a file with a mode this scan cannot read (fopen)");
  expect_flag("void f() { std::ofstream out(\"x\"); }", "writes a file (ofstream)");
  expect_flag("void f() { int fd = open(p, O_WRONLY | O_CREAT); }", "writes a file (open O_WRONLY)");
  expect_flag("void f() { remove(\"x\"); unlink(\"y\"); rename(a, b); }", "removes a file (remove)");
  expect_flag("void f() { unlink(\"y\"); }", "writes or removes files (unlink)");
  expect_flag("void f() { std::filesystem::remove(p); }", "writes or removes files (filesystem::remove)");
  expect_flag("void f() { fs::create_directories(p); }", "writes or removes files (create_directories)");
  for (const char* end : {"exit", "_exit", "quick_exit", "abort", "std::terminate", "kill", "raise"})
    expect_flag(std::string("void f() { ") + end + "(0); }", "ends the process (");
  expect_flag("void f() { std::exit(0); }", "f.cu:1 ends the process (exit)");
  expect_flag("void f() { dlopen(\"libx.so\", 0); }", "loads a library (dlopen)");
  expect_flag("void f() { system(\"rm -rf x\"); }", "starts a program (system)");
  expect_flag("__device__ int lane() { int l; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l)); return l; }",
              "inline assembly (asm)");
  expect_flag("#define GO(a, b) a##b\n", "pastes tokens in a macro");
}

TEST(SourceScan, WordsInCommentsAndStringsAndLookalikesAreNotFlagged) {
  const std::string code =
      "// exit(0), getenv(\"X\"), asm volatile, fopen(f, \"w\")\n"
      "/* std::ofstream out; abort(); */\n"
      "#include <cstdio>\n"
      "const int kBlock = 256;\n"
      "static const float kScale = 1.5f;\n"
      "__constant__ float kTaps[3] = {1.f, 2.f, 1.f};\n"
      "constexpr int kTile = sizeof(float) * 4;\n"
      "void vector_add(const float* a, const float* b, float* out, int n);\n"
      "template <typename T, int N = 4> void g(T x) { std::vector<T> v; v.erase(std::remove(v.begin(), v.end(), x), v.end()); }\n"
      "enum class Target { cpu, gpu };\n"
      "void f(FILE* in) { std::puts(\"exit(1) is not called\"); FILE* r = std::fopen(\"x\", \"rb\"); if (r) std::fclose(r);\n"
      "  auto call = [](int v) { return v + 1; }; stream.raise(); }\n";
  EXPECT_EQ(findings(code), "");
}

TEST(SourceScan, NoFlagOnTheReferenceSolutions) {
  EXPECT_EQ(scan_tree(fs::path(COURSE_SOURCE_DIR) / "solutions"), "");
}

TEST(SourceScan, TheSampleClassesHonestStudentsAreNotFlagged) {
  const fs::path fixtures = fs::path(COURSE_SOURCE_DIR) / "grader/tests/fixtures/class";
  for (const char* student : {"cy-no-compile", "dee-hangs", "eve-extras"})
    EXPECT_EQ(scan_tree(fixtures / student), "") << student;
  // ben-wrong's CPU target does write a file (note.txt): that is its one flag, and a true one.
  EXPECT_EQ(scan_tree(fixtures / "ben-wrong"),
            "lessons/01-vector-add/vectorize.cuh:18 writes a file (fopen \"w\")\n");
}
