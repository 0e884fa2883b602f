# The course's static lint, run as a test. For every listed lesson:
#   - lessons/<lesson>/README.md has "## Hints" and "## If you know Numba/PyCUDA" sections and a
#     "### Step N" heading for every step the exercise marks, and no step the exercise lacks;
#   - every "### Step N" has a "- **Step N.** ..." hint bullet in "## Hints" (a bullet of every
#     step is "- **All steps.** ..."), and no hint bullet names a step the README lacks;
#   - the exercise marks its steps with TODO(step N) comments and STEPWISE_TODO(N) stubs;
#   - solutions/<lesson> holds no STEPWISE_TODO.
#   cmake -DSOURCE_DIR=<repo> -DLESSONS=00-hello-gpu|01-vector-add -P lint.cmake
cmake_minimum_required(VERSION 3.24)
include("${CMAKE_CURRENT_LIST_DIR}/missing.cmake")
string(REPLACE "|" ";" lessons "${LESSONS}")
set(problems "")
foreach(lesson IN LISTS lessons)
  set(dir "${SOURCE_DIR}/lessons/${lesson}")
  if(NOT EXISTS "${dir}/README.md")
    list(APPEND problems "lessons/${lesson}: README.md is missing")
    continue()
  endif()
  file(READ "${dir}/README.md" readme)
  foreach(section "## Hints" "## If you know Numba/PyCUDA")
    if(NOT readme MATCHES "(^|\n)${section}")
      list(APPEND problems "lessons/${lesson}/README.md: no '${section}' section")
    endif()
  endforeach()

  file(GLOB exercise_files "${dir}/*.cu" "${dir}/*.cpp" "${dir}/*.h" "${dir}/*.cuh")
  set(code_steps "")
  set(stub_steps "")
  foreach(file IN LISTS exercise_files)
    file(READ "${file}" text)
    string(REGEX MATCHALL "TODO\\(step [0-9]+\\)" marks "${text}")
    string(REGEX MATCHALL "STEPWISE_TODO\\([0-9]+\\)" stubs "${text}")
    string(REGEX REPLACE "[^0-9;]" "" marks "${marks}")
    string(REGEX REPLACE "[^0-9;]" "" stubs "${stubs}")
    list(APPEND code_steps ${marks})
    list(APPEND stub_steps ${stubs})
  endforeach()
  list(REMOVE_DUPLICATES code_steps)
  list(REMOVE_DUPLICATES stub_steps)
  if(NOT code_steps OR NOT stub_steps)
    list(APPEND problems "lessons/${lesson}: the exercise has no TODO(step N) marker or no STEPWISE_TODO(N) stub")
  endif()
  foreach(step IN LISTS stub_steps)
    if(NOT step IN_LIST code_steps)
      list(APPEND problems "lessons/${lesson}: STEPWISE_TODO(${step}) has no TODO(step ${step}) comment saying what to do")
    endif()
  endforeach()
  string(REGEX MATCHALL "\n### Step [0-9]+" readme_steps "${readme}")
  string(REGEX REPLACE "[^0-9;]" "" readme_steps "${readme_steps}")
  stepwise_report_missing(problems "${code_steps}" "${readme_steps}"
    "lessons/${lesson}: TODO(step @ITEM@) has no '### Step @ITEM@' in README.md")
  stepwise_report_missing(problems "${readme_steps}" "${code_steps}"
    "lessons/${lesson}/README.md: '### Step @ITEM@' has no TODO(step @ITEM@) in the exercise")

  # Every step has hints of its own: a "- **Step N.** ..." bullet in the Hints section (what
  # `stepwise hint NN N` prints), and no such bullet names a step the README lacks.
  set(hints_text "")
  string(FIND "${readme}" "\n## Hints" hints_at)
  if(hints_at GREATER_EQUAL 0)
    math(EXPR hints_at "${hints_at} + 1")
    string(SUBSTRING "${readme}" ${hints_at} -1 hints_text)
    string(REGEX REPLACE "^## Hints[^\n]*" "" hints_text "${hints_text}")
    foreach(next_heading "\n## " "\n# ")
      string(FIND "${hints_text}" "${next_heading}" end)
      if(end GREATER_EQUAL 0)
        string(SUBSTRING "${hints_text}" 0 ${end} hints_text)
      endif()
    endforeach()
  endif()
  string(REGEX MATCHALL "\n[-*] \\*\\*Step [0-9]+\\.\\*\\*" hint_steps "\n${hints_text}")
  string(REGEX REPLACE "[^0-9;]" "" hint_steps "${hint_steps}")
  list(REMOVE_DUPLICATES hint_steps)
  stepwise_report_missing(problems "${readme_steps}" "${hint_steps}"
    "lessons/${lesson}/README.md: '### Step @ITEM@' has no '- **Step @ITEM@.**' hint in '## Hints'")
  stepwise_report_missing(problems "${hint_steps}" "${readme_steps}"
    "lessons/${lesson}/README.md: the hint '- **Step @ITEM@.**' is for a step with no '### Step @ITEM@'")

  file(GLOB solution_files "${SOURCE_DIR}/solutions/${lesson}/*")
  foreach(file IN LISTS solution_files)
    file(READ "${file}" text)
    if(text MATCHES "STEPWISE_TODO\\(")
      list(APPEND problems "solutions/${lesson}: ${file} still has a STEPWISE_TODO")
    endif()
  endforeach()
endforeach()

if(problems)
  list(JOIN problems "\n  " report)
  message(FATAL_ERROR "lint found problems:\n  ${report}")
endif()
list(LENGTH lessons count)
message("lint: ${count} lessons checked, no problems")
