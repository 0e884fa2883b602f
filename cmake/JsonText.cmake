# JSON text written by CMake (the files the grading runner reads). Names come from outside the
# course (a student's folder and file names), so every string is escaped, never pasted in quotes.

# json_quote(<text> <out>): <text> as a JSON string, with its quotes, backslashes and control
# characters escaped.
function(json_quote text out)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\n" "\\n" text "${text}")
  string(REPLACE "\r" "\\r" text "${text}")
  string(REPLACE "\t" "\\t" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
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
