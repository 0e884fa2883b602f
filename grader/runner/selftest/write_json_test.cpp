// `stepwise write-json` (write_json.h), the one writer of the JSON files CMake hands the runner: a
// name a student may choose reads back unchanged, the facts make members, arrays and objects in
// the order given, a bad fact writes nothing, and an identical file is left untouched.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "write_json.h"

namespace {

namespace fs = std::filesystem;
using runner::json_of_facts;
using runner::run_write_json;

struct TempFolder {
  fs::path dir = fs::temp_directory_path() / ("stepwise-write-json-" + std::to_string(getpid()));
  TempFolder() { fs::create_directories(dir); }
  ~TempFolder() { fs::remove_all(dir); }
};

nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

TEST(WriteJson, NamesAStudentMayChooseReadBackUnchanged) {
  const std::vector<std::string> names{"plain", "fay \"quoted\" name", "back\\slash", "line\nbreak\ttab\r",
                                       std::string("control") + '\x01' + "character", "café ☃ space",
                                       "ends with a quote\"", "{\"json\": [1]}", "C:\\students\\", "a=b", "/-", ""};
  std::vector<std::string> facts{"/list[]"};
  for (const std::string& name : names) facts.push_back("/list/-=" + name);
  for (std::size_t i = 0; i < names.size(); ++i) facts.push_back("/one" + std::to_string(i) + "=" + names[i]);
  TempFolder temp;
  const fs::path file = temp.dir / "names.json";
  ASSERT_EQ(run_write_json(file, facts), 0);
  const nlohmann::json json = read_json(file);
  ASSERT_EQ(json.at("list").size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(json.at("list").at(i), names[i]);
    EXPECT_EQ(json.at("one" + std::to_string(i)), names[i]);
  }
}

TEST(WriteJson, FactsMakeMembersArraysAndObjectsInTheirOrder) {
  const nlohmann::ordered_json json = json_of_facts(
      {"/source_dir=/course", "/tools[]", "/lessons[]", "/lessons/0/slug=00-hello-gpu", "/lessons/0/exercise[]",
       "/lessons/0/exercise/-=lesson00-tests", "/lessons/0/exercise/-=lesson00-demo", "/lessons/1/slug=01-vector-add",
       "/lessons/1/tuned[]", "/manifest{}", "/manifest/00-hello-gpu/state=sent", "/tools[]"});
  EXPECT_EQ(json.dump(),
            R"({"source_dir":"/course","tools":[],"lessons":[{"slug":"00-hello-gpu","exercise":["lesson00-tests",)"
            R"("lesson00-demo"]},{"slug":"01-vector-add","tuned":[]}],"manifest":{"00-hello-gpu":{"state":"sent"}}})");
  EXPECT_EQ(json_of_facts({}).dump(), "{}");
}

TEST(WriteJson, ABadFactWritesNothing) {
  TempFolder temp;
  const fs::path file = temp.dir / "bad.json";
  for (const std::vector<std::string>& facts : std::vector<std::vector<std::string>>{
           {"no-pointer=x"}, {"/a", "/b=1"}, {"/a=text", "/a/b=through a string"}, {"/a[]", "/a/x=array key"}}) {
    EXPECT_EQ(run_write_json(file, facts), 1) << facts.front();
    EXPECT_FALSE(fs::exists(file)) << facts.front();
  }
}

TEST(WriteJson, LeavesAnIdenticalFileUntouched) {
  TempFolder temp;
  const fs::path file = temp.dir / "course.json";
  ASSERT_EQ(run_write_json(file, {"/slug=00-hello-gpu"}), 0);
  const fs::file_time_type long_ago = fs::last_write_time(file) - std::chrono::hours(1);
  fs::last_write_time(file, long_ago);
  ASSERT_EQ(run_write_json(file, {"/slug=00-hello-gpu"}), 0);
  EXPECT_EQ(fs::last_write_time(file), long_ago) << "the same facts rewrote the file";
  ASSERT_EQ(run_write_json(file, {"/slug=01-vector-add"}), 0);
  EXPECT_NE(fs::last_write_time(file), long_ago);
  EXPECT_EQ(read_json(file).at("slug"), "01-vector-add");
}

}  // namespace
