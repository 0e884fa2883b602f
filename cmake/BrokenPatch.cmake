# stepwise_apply_broken_patch(<NN-slug> <patch file> <out dir> <out var>)
#
# A broken submission written as a patch (grader/broken/<NN-slug>/<name>.patch): the header lines
# (// broken:, // fails:, // expect:, and any comment) come first, then a unified diff of one or
# more files of solutions/<NN-slug>/ (paths a/solutions/<NN-slug>/<file>, b/solutions/<NN-slug>/<file>:
# `diff -u` or `git diff` from the repository root). patch(1) skips the header: the text before
# the first `---` line is not part of the diff.
#
# At configure time the named solution files are copied to a scratch folder, the patch is applied
# to them (no fuzz: a hunk whose context changed is refused, not guessed), and the results are
# written to <out dir>/<file> (only when they differ, so an unchanged result is not recompiled).
# <out var> receives the file names (relative to solutions/<NN-slug>) the patch changes. A patch
# that no longer applies, because its solution file changed under it, stops the configure with
# the names of both. Editing the patch or the solution file runs the configure again.

find_program(STEPWISE_PATCH_EXECUTABLE NAMES patch gpatch
             DOC "patch(1), which makes the broken submissions written as patches (grader/broken/*/*.patch)")
# Without patch(1) (minimal images), `git apply` does the same job: it also refuses a hunk whose
# context changed and skips the header lines before the diff.
find_package(Git QUIET)

function(stepwise_apply_broken_patch lesson patch_file out_dir out_var)
  file(RELATIVE_PATH shown "${STEPWISE_SOURCE_DIR}" "${patch_file}")
  if(NOT STEPWISE_PATCH_EXECUTABLE AND NOT GIT_EXECUTABLE)
    message(FATAL_ERROR "${shown} is a patch to a solution, and this machine has neither patch nor git: "
                        "install patch (e.g. apt-get install patch) and configure again")
  endif()
  file(STRINGS "${patch_file}" targets REGEX "^\\+\\+\\+ ")
  set(files "")
  foreach(line IN LISTS targets)
    if(NOT line MATCHES "^\\+\\+\\+ b/solutions/${lesson}/([^\t ]+)")
      message(FATAL_ERROR "${shown}: '${line}' names no file of solutions/${lesson}/ "
                          "(a broken submission patches its lesson's solution: +++ b/solutions/${lesson}/<file>)")
    endif()
    list(APPEND files "${CMAKE_MATCH_1}")
  endforeach()
  if(NOT files)
    message(FATAL_ERROR "${shown} holds no diff (no '+++ b/solutions/${lesson}/<file>' line)")
  endif()
  list(REMOVE_DUPLICATES files)

  get_filename_component(name "${patch_file}" NAME_WE)
  set(scratch "${CMAKE_CURRENT_BINARY_DIR}/broken-patch-scratch/${name}")
  file(REMOVE_RECURSE "${scratch}")
  set(solution_files "")
  foreach(file IN LISTS files)
    set(solution_file "${STEPWISE_SOURCE_DIR}/solutions/${lesson}/${file}")
    if(NOT EXISTS "${solution_file}")
      message(FATAL_ERROR "${shown} patches solutions/${lesson}/${file}, which does not exist")
    endif()
    get_filename_component(folder "${scratch}/solutions/${lesson}/${file}" DIRECTORY)
    file(MAKE_DIRECTORY "${folder}")
    file(COPY_FILE "${solution_file}" "${scratch}/solutions/${lesson}/${file}")
    list(APPEND solution_files "${solution_file}")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${patch_file}" ${solution_files})

  if(STEPWISE_PATCH_EXECUTABLE)
    set(apply "${STEPWISE_PATCH_EXECUTABLE}" -p1 -N -F 0 -s -i "${patch_file}")
  else()
    set(apply "${GIT_EXECUTABLE}" apply -p1 "${patch_file}")
  endif()
  execute_process(COMMAND ${apply} WORKING_DIRECTORY "${scratch}"
                  RESULT_VARIABLE code OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT code STREQUAL "0")
    list(TRANSFORM files PREPEND "solutions/${lesson}/" OUTPUT_VARIABLE named)
    list(JOIN named ", " named)
    message(FATAL_ERROR "${shown} no longer applies to ${named} (the solution changed under it); "
                        "patch said (in ${scratch}):\n${output}\n"
                        "Remake it: copy the solution file, make the mistake again in the copy, and "
                        "write the header lines of the old patch followed by "
                        "`diff -u` of the two (paths a/solutions/${lesson}/<file> and b/solutions/${lesson}/<file>).")
  endif()
  foreach(file IN LISTS files)
    get_filename_component(folder "${out_dir}/${file}" DIRECTORY)
    file(MAKE_DIRECTORY "${folder}")
    file(COPY_FILE "${scratch}/solutions/${lesson}/${file}" "${out_dir}/${file}" ONLY_IF_DIFFERENT)
  endforeach()
  file(REMOVE_RECURSE "${scratch}")
  set(${out_var} ${files} PARENT_SCOPE)
endfunction()
