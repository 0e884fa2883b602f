# stepwise_write_course(<file> LESSONS <NN-slug>... [TOOLS <target>...])
#
# The course file the grading runner (bin/stepwise) reads: where the sources and the build are,
# which CMake and CTest to call, and each lesson, in reading order, with the target that builds
# its exercise, its solution and its tuned version (stepwise_add_tuned), if it has one: one
# target each, lessonNN-programs[-solution|-tuned], for its checks and its demo, so that one make
# builds them side by side (make builds the targets named on one command line one after another).
# The runner
# learns the lessons from this file (made from STEPWISE_LESSONS, the lessons of course.json, at
# configure time), so a new lesson needs no change to the runner.
# CMake gathers the facts; the runner writes the JSON (`stepwise write-json`, write_json.h), so
# that a name (a folder a student chose) is never pasted between quotes. In the course build that
# is a build step after the runner is built (target stepwise-course-file, part of ALL); in a
# project built on a course build (a fixture, a student's copy), that build's runner,
# STEPWISE_RUNNER, writes it now.
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/WriteJson.cmake")

function(stepwise_write_course file)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "LESSONS;TOOLS")
  set(facts "/source_dir=${PROJECT_SOURCE_DIR}" "/build_dir=${PROJECT_BINARY_DIR}" "/cmake=${CMAKE_COMMAND}"
            "/ctest=${CMAKE_CTEST_COMMAND}" "/tools[]" "/lessons[]")
  # Ninja itself where it builds this folder: the runner runs it without `cmake --build`, whose own
  # start costs 0.2 s of every `watch` report on the H100 machine (ninja's no-op build: 0.07 s).
  if(CMAKE_GENERATOR STREQUAL "Ninja" AND CMAKE_MAKE_PROGRAM)
    list(APPEND facts "/ninja=${CMAKE_MAKE_PROGRAM}")
  endif()
  foreach(tool IN LISTS ARG_TOOLS)
    list(APPEND facts "/tools/-=${tool}")
  endforeach()
  set(i 0)
  foreach(lesson IN LISTS ARG_LESSONS)
    string(SUBSTRING "${lesson}" 0 2 nn)
    list(APPEND facts "/lessons/${i}/slug=${lesson}")
    if(TARGET lesson${nn}-tests)  # the folder of its checks (no other lesson's are there)
      get_target_property(tests_dir lesson${nn}-tests BINARY_DIR)
      list(APPEND facts "/lessons/${i}/tests_dir=${tests_dir}")
    endif()
    foreach(track exercise solution tuned)
      set(suffix "")
      if(NOT track STREQUAL "exercise")
        set(suffix "-${track}")  # lessonNN-tests-solution; lessonNN-tests-tuned where it has a tuned version
      endif()
      list(APPEND facts "/lessons/${i}/${track}[]")
      set(programs "")
      foreach(target lesson${nn}-tests${suffix} lesson${nn}-demo${suffix})
        if(TARGET ${target})
          list(APPEND programs ${target})
          list(APPEND every_${track} ${target})
        endif()
      endforeach()
      if(programs)
        if(NOT TARGET lesson${nn}-programs${suffix})
          add_custom_target(lesson${nn}-programs${suffix})
          add_dependencies(lesson${nn}-programs${suffix} ${programs})
        endif()
        list(APPEND facts "/lessons/${i}/${track}/-=lesson${nn}-programs${suffix}")
      endif()
    endforeach()
    math(EXPR i "${i} + 1")
  endforeach()
  # One target per track builds every lesson's: the runner builds it first (keeping going past a
  # lesson that does not compile), so that all the cores build all the lessons at once.
  foreach(track exercise solution tuned)
    if(every_${track} AND NOT TARGET stepwise-${track}-lessons)
      add_custom_target(stepwise-${track}-lessons)
      add_dependencies(stepwise-${track}-lessons ${every_${track}})
      list(APPEND facts "/${track}_lessons_target=stepwise-${track}-lessons")
    endif()
  endforeach()

  if(NOT TARGET stepwise)
    stepwise_write_json("${file}" ${facts})
    return()
  endif()
  # Make runs a command again when a file it depends on changed, not when its arguments did: the
  # facts, in a file rewritten only when they change, are that file. The runner leaves an identical
  # course file untouched (nothing that reads it is done again), so the command's output is a stamp
  # touched after it: otherwise, once the runner is rebuilt, the course file would stay older than it
  # and the command would run at every build. (The facts go in as one @-variable, which is not
  # expanded again: a name holding @...@ or ${...} is written as it is.)
  list(JOIN facts "\n" facts_text)
  file(CONFIGURE OUTPUT "${file}.facts" CONTENT "@facts_text@\n" @ONLY)
  add_custom_command(OUTPUT "${file}.written"
    COMMAND stepwise write-json "${file}" ${facts}
    COMMAND "${CMAKE_COMMAND}" -E touch "${file}.written"
    BYPRODUCTS "${file}"
    DEPENDS stepwise "${file}.facts"
    COMMENT "" VERBATIM)
  add_custom_target(stepwise-course-file ALL DEPENDS "${file}.written")
endfunction()
