#pragma once
// `stepwise write-json <file> <fact>...`: the JSON files CMake hands the runner (the course file
// stepwise-course.json, a class build's class.json and each student's manifest.json), written by
// nlohmann-json from facts CMake passes as arguments. CMake writes no JSON text: the names in
// these files come from outside the course (a student's folder and file names), and here none is
// ever pasted between quotes. A fact is one of
//   <pointer>=<text>   the string <text> at the JSON pointer (RFC 6901, e.g. /lessons/0/slug); a
//                      last token "-" appends it to the array there (/tools/-=stepwise-doctor)
//   <pointer>[]        an empty array there, unless something is there already
//   <pointer>{}        an empty object there, unless something is there already
// applied in order (so an array is named before its items are appended).
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace runner {

// The JSON the facts make, its members in the order given. Throws std::invalid_argument naming a
// fact that is none of the above.
nlohmann::ordered_json json_of_facts(const std::vector<std::string>& facts);

// Writes json_of_facts(facts) to `file`, unless it already holds exactly that: an identical file
// keeps its time stamp, so nothing that depends on it is done again. 0, or 1 with the reason on
// stderr.
int run_write_json(const std::filesystem::path& file, const std::vector<std::string>& facts);

}  // namespace runner
