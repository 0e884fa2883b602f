# cmake/JsonText.cmake on names a student may choose: each string written into JSON by
# json_set_string / json_set_strings reads back from that JSON unchanged.
#   cmake -P json_text.cmake
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/JsonText.cmake")
string(ASCII 1 control)
# (A name that ends in a backslash goes last: in a CMake list it would escape the ';' after it.)
set(names "plain" "fay \"quoted\" name" "back\\slash" "line\nbreak\ttab\r" "control${control}character"
          "café ☃ space" "ends with a quote\"" "{\"json\": [1]}" "C:\\students\\")
string(JSON json SET "{}" one "[]")
json_set_strings(json list STRINGS ${names})
set(i 0)
foreach(name IN LISTS names)
  json_set_string(json one ${i} VALUE "${name}")
  string(JSON from_list GET "${json}" list ${i})
  string(JSON from_one GET "${json}" one ${i})
  if(NOT from_list STREQUAL name OR NOT from_one STREQUAL name)
    message(FATAL_ERROR "'${name}' came back as '${from_list}' and '${from_one}'")
  endif()
  math(EXPR i "${i} + 1")
endforeach()
message("json text: ${i} names read back unchanged")
