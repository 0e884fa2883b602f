// Self-tests of the machine-code checks' choice of PTX files (CPU): nvcc --keep never removes
// what it kept, so the folder still holds the PTX of a file the student has since renamed, or of
// an architecture no longer built, with the kernels as they were then. Only the PTX of the .cu
// files and architectures compiled now is read.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "grader/machine_code.h"
#include "grader/trace.h"

namespace {

namespace fs = std::filesystem;

// A folder of its own under GoogleTest's temporary folder, emptied first.
std::string fresh_folder(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / ("stepwise-machine-code-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

void write(const std::string& dir, const std::string& name, const std::string& text) {
  std::ofstream(fs::path(dir) / name) << text;
}

// scale_kernel of the self-tests' "student's" files (selftest/trace_student.cu), by the mangled
// name nvcc gave it in this build (its anonymous namespace carries a hash of the file).
std::string scale_kernel_mangled() {
  for (const std::string& mangled : grader::kernels_built().student)
    if (mangled.find("12scale_kernel") != std::string::npos) return mangled;
  return "";
}

// That kernel's PTX with the given arithmetic line.
std::string scale_kernel_ptx(const std::string& arithmetic) {
  const std::string name = scale_kernel_mangled();
  return ".version 8.0\n.target sm_90\n.address_size 64\n\n"
         ".visible .entry " + name + "(\n\t.param .u64 " + name + "_param_0,\n"
         "\t.param .u32 " + name + "_param_1\n)\n{\n"
         "\t.reg .f32 \t%f<3>;\n\t.reg .f64 \t%fd<4>;\n\t" + arithmetic + "\n\tret;\n}\n";
}

std::vector<std::string> names_of(const std::vector<std::string>& files) {
  std::vector<std::string> names;
  for (const std::string& file : files) names.push_back(fs::path(file).filename().string());
  return names;
}

TEST(MachineCodeFiles, OnlyThePtxOfTheFilesCompiledNow) {
  const std::string dir = fresh_folder("files");
  for (const char* name : {"scan.ptx", "scan.compute_80.ptx", "scan.compute_90a.ptx",  // scan.cu, now
                           "my.file.ptx",                                              // my.file.cu, now
                           "scan_old.ptx", "scan_old.compute_80.ptx", "my.ptx",        // renamed since
                           "scan.cpp1.ii", "scan.sm_90.cubin"})                        // not PTX
    write(dir, name, "");
  // Architectures not known: every PTX of the files of now.
  EXPECT_EQ(names_of(grader::device_code_files(dir, {"/course/lessons/13-prefix-sums/scan.cu", "my.file.cu"})),
            (std::vector<std::string>{"my.file.ptx", "scan.compute_80.ptx", "scan.compute_90a.ptx", "scan.ptx"}));
  EXPECT_TRUE(grader::device_code_files(dir, {}).empty());
  EXPECT_TRUE(grader::device_code_files(dir + "/absent", {"scan.cu"}).empty());
}

// nvcc names the PTX <stem>.ptx for one virtual architecture and <stem>.compute_<arch>.ptx for
// each of several (tried with nvcc 13.0: --generate-code for 90 alone gives k.ptx, for 75 and 90
// k.compute_75.ptx and k.compute_90.ptx). After CMAKE_CUDA_ARCHITECTURES went from "75;80;90" to
// "90", then to "80;90", the folder holds all of them; only those of the architectures of now
// are read.
TEST(MachineCodeFiles, StalePtxOfAnArchitectureNoLongerBuiltIsIgnored) {
  const std::string dir = fresh_folder("architectures");
  for (const char* name : {"scan.ptx", "scan.compute_75.ptx", "scan.compute_80.ptx", "scan.compute_90.ptx"})
    write(dir, name, "");
  EXPECT_EQ(names_of(grader::device_code_files(dir, {"scan.cu"}, {"90"})), (std::vector<std::string>{"scan.ptx"}));
  EXPECT_EQ(names_of(grader::device_code_files(dir, {"scan.cu"}, {"80", "90"})),
            (std::vector<std::string>{"scan.compute_80.ptx", "scan.compute_90.ptx"}));
  EXPECT_EQ(names_of(grader::device_code_files(dir, {"scan.cu"}, {"86", "90"})),
            (std::vector<std::string>{"scan.compute_90.ptx"}));
  // One architecture whose PTX nvcc named by the architecture (no <stem>.ptx): that one.
  fs::remove(fs::path(dir) / "scan.ptx");
  EXPECT_EQ(names_of(grader::device_code_files(dir, {"scan.cu"}, {"80"})),
            (std::vector<std::string>{"scan.compute_80.ptx"}));
  EXPECT_TRUE(grader::device_code_files(dir, {"scan.cu"}, {"86"}).empty());
}

TEST(MachineCodeFiles, VirtualArchitecturesOfACMakeList) {
  using List = std::vector<std::string>;
  EXPECT_EQ(grader::virtual_architectures("90"), List{"90"});
  EXPECT_EQ(grader::virtual_architectures("75;90-real;90-virtual"), (List{"75", "90"}));
  EXPECT_EQ(grader::virtual_architectures("90a-real,80"), (List{"80", "90a"}));
  EXPECT_EQ(grader::virtual_architectures(" 86 ; 86-real "), List{"86"});
  for (const char* unknown : {"", "native", "all", "all-major", "OFF", "90;native"})
    EXPECT_EQ(grader::virtual_architectures(unknown), List{}) << "'" << unknown << "'";
}

// The student's files as the self-tests' folder holds them.
grader::DeviceCode code_in(const std::string& dir, const std::vector<std::string>& sources,
                           const std::vector<std::string>& architectures = {}) {
  return {dir, sources, architectures, grader::kernels_built().student, "your files"};
}

// The end-to-end case: the student had scale_kernel in old_name.cu with a double multiply, then
// fixed it and renamed the file trace_student.cu. The folder holds both PTX files; the counts are
// the largest over the files read, so reading the stale one failed the kernel until a clean build.
std::string stale_dir;  // EXPECT_FATAL_FAILURE's statement may use no local variable

TEST(MachineCodeFiles, StalePtxOfARenamedFileIsNotRead) {
  ASSERT_NE(scale_kernel_mangled(), "") << "scale_kernel is not among the kernels built from trace_student.cu";
  stale_dir = fresh_folder("stale");
  const std::string stale = scale_kernel_ptx("mul.rn.f64 \t%fd3, %fd1, %fd2;");
  write(stale_dir, "trace_student.ptx", scale_kernel_ptx("mul.rn.f32 \t%f2, %f1, 0f40000000;"));
  write(stale_dir, "old_name.ptx", stale);
  ASSERT_EQ(grader::fp64_in_ptx(stale)[scale_kernel_mangled()].fp64.at("mul.f64"), 1);

  // The files compiled now: the stale PTX is not read, the kernel passes.
  grader::expect_float_arithmetic_in(code_in(stale_dir, {"grader/selftest/trace_student.cu"}), "::scale_kernel\\(",
                                     [] {});
  EXPECT_FALSE(HasFailure());

  // Were the stale file read (as every *.ptx was before), the kernel would fail.
  EXPECT_FATAL_FAILURE(grader::expect_float_arithmetic_in(code_in(stale_dir, {"trace_student.cu", "old_name.cu"}),
                                                          "::scale_kernel\\(", [] {}),
                       "does double arithmetic (1 mul.f64)");
}

// The same after CMAKE_CUDA_ARCHITECTURES went from "80;90" (when the kernel multiplied in
// double) to "90" (fixed since): trace_student.compute_90.ptx is stale, trace_student.ptx is now.
TEST(MachineCodeFiles, StalePtxOfAnOldArchitectureIsNotRead) {
  ASSERT_NE(scale_kernel_mangled(), "") << "scale_kernel is not among the kernels built from trace_student.cu";
  stale_dir = fresh_folder("stale-architecture");
  write(stale_dir, "trace_student.ptx", scale_kernel_ptx("mul.rn.f32 \t%f2, %f1, 0f40000000;"));
  write(stale_dir, "trace_student.compute_80.ptx", scale_kernel_ptx("mul.rn.f64 \t%fd3, %fd1, %fd2;"));
  write(stale_dir, "trace_student.compute_90.ptx", scale_kernel_ptx("mul.rn.f64 \t%fd3, %fd1, %fd2;"));
  grader::expect_float_arithmetic_in(code_in(stale_dir, {"trace_student.cu"}, {"90"}), "::scale_kernel\\(", [] {});
  EXPECT_FALSE(HasFailure());
  // Built for both now: both PTX files are read, and the double multiply fails the kernel.
  EXPECT_FATAL_FAILURE(grader::expect_float_arithmetic_in(code_in(stale_dir, {"trace_student.cu"}, {"80", "90"}),
                                                          "::scale_kernel\\(", [] {}),
                       "does double arithmetic (1 mul.f64)");
}

// This program's own build passes the student's .cu files of now, whose PTX is in its folder,
// and the architectures it builds; it has no checks of a lesson, so no checks' device code.
TEST(MachineCodeFiles, TheBuildNamesTheStudentsFiles) {
  const grader::DeviceCode code = grader::students_device_code();
  ASSERT_EQ(code.sources.size(), 1u);
  EXPECT_EQ(fs::path(code.sources[0]).filename(), "trace_student.cu");
  const std::vector<std::string> files = grader::device_code_files(code.dir, code.sources, code.architectures);
  ASSERT_FALSE(files.empty()) << "no PTX of trace_student.cu in '" << code.dir << "'";
  for (const std::string& file : files) EXPECT_EQ(fs::path(file).filename().string().rfind("trace_student.", 0), 0u);
  EXPECT_EQ(grader::checks_device_code().dir, "");
}

}  // namespace
