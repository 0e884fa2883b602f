# JSON text written by CMake (the files the grading runner reads). Names come from outside the
# course (a student's folder and file names), so no string is pasted between quotes: CMake's own
# JSON writer escapes every one.

# json_quote(<text> <out>): <text> as a JSON string, escaped by CMake. string(JSON SET) parses its
# value as JSON (a raw text cannot be given as a value), but takes a member's name as raw text and
# writes it escaped; so the text becomes the one name of an object, and that name is the answer.
function(json_quote text out)
  string(JSON object SET "{}" "${text}" 0)
  string(REGEX REPLACE "^{[ \t\r\n]*(\".*\")[ \t\r\n]*:[ \t\r\n]*0[ \t\r\n]*}$" "\\1" quoted "${object}")
  set(${out} "${quoted}" PARENT_SCOPE)
endfunction()

# json_set_strings(<json variable> <member>... STRINGS <text>...): sets the member (a path of
# keys and indexes, as string(JSON SET) takes) to an array of the texts as JSON strings.
function(json_set_strings json_variable)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "STRINGS")
  set(json "${${json_variable}}")
  string(JSON json SET "${json}" ${ARG_UNPARSED_ARGUMENTS} "[]")
  set(i 0)
  foreach(text IN LISTS ARG_STRINGS)
    json_quote("${text}" quoted)
    string(JSON json SET "${json}" ${ARG_UNPARSED_ARGUMENTS} ${i} "${quoted}")
    math(EXPR i "${i} + 1")
  endforeach()
  set(${json_variable} "${json}" PARENT_SCOPE)
endfunction()

# json_set_string(<json variable> <member>... VALUE <text>): sets the member to the text as a
# JSON string.
function(json_set_string json_variable)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "VALUE" "")
  json_quote("${ARG_VALUE}" quoted)
  set(json "${${json_variable}}")
  string(JSON json SET "${json}" ${ARG_UNPARSED_ARGUMENTS} "${quoted}")
  set(${json_variable} "${json}" PARENT_SCOPE)
endfunction()
