# add_lesson(<NN-slug> [LIBRARIES <target>...] [DEMO_LIBRARIES <target>...] [SANITIZERS <tool>...]
#            [DEMO_ARGS <arg>...] [TRICKS <trick>...])
#
# Registers one lesson. Its files follow one convention:
#   lessons/<NN-slug>/*.h, *.cuh      the API the grader tests; headers holding a step
#                                     (templates) have a twin in solutions/
#   lessons/<NN-slug>/*.cu, *.cpp     the exercise a student completes (demo.cu is the demo);
#                                     one with no twin in solutions/ and no STEPWISE_TODO is
#                                     given code, compiled once (stepwise_split_lesson_sources)
#   solutions/<NN-slug>/...           the reference: the same file names, a drop-in replacement
#   solutions/<NN-slug>/tuned/*.cu    optional: a faster version beside the reference (the
#                                     README's "The tuned version"), graded as track "tuned"
#   grader/tests/<NN-slug>.cu|.cpp    the grader's checks of the API
#   grader/broken/<NN-slug>/*.patch   broken submissions, each describing itself in its header:
#                  and *.cu           a patch to the solution, or a file of its own
# For each track (exercise, solution) it builds the implementation, the demo and the checks
# (compiled once per track), with that track's folder first on the include path:
#   bin/lessonNN-demo,          bin/lessonNN-tests           (the exercise: what a student runs)
#   bin/lessonNN-demo-solution, bin/lessonNN-tests-solution  (the reference solution)
#   bin/lessonNN-broken-<name>                               (built by the `selftests` target)
# and lessonNN-all builds all of them, with bin/lessonNN-tests-tuned (the tuned files, if any, in
# place of the solution's: stepwise_add_tuned). LIBRARIES names what the lesson's code links to (e.g.
# CUDA::cublas); DEMO_LIBRARIES what its demo alone needs besides (stepwise::image: a demo that reads or
# writes pictures). SANITIZERS names compute-sanitizer tools graded besides memcheck (racecheck,
# synccheck: lessons with shared memory). The solution's demo is also a test
# (<NN-slug>/solution/demo), run with DEMO_ARGS in the build folder: that test shows the demo
# works, it times nothing, so a demo whose one-CPU-thread comparison takes over a second at the
# seed's size runs a quarter of it or less there (the graded run's last seconds are those demos
# on a busy CPU). TRICKS names the trace
# tricks (grader/trace.h: library, host, legacy-stream, side-stream, synchronise, left-running,
# host-copy) the lesson's trace rules must catch: each is a test <NN-slug>/trick/<trick> that
# plays it around the reference solution's traced calls (grader/broken/expect_trick.cmake). A
# lesson with speed checks (a check of kind speed, grader/check_kind.h) also gets the speed tricks
# (STEPWISE_SPEED_TRICKS: skip-repeated, checked-only, hidden-work; grader/trace.h), each a test
# <NN-slug>/trick/<trick> that plays it on the timed runs of the solution's calls in the lesson's
# speed checks, which must each fail saying so.

# The course's source folder, also when another project (grader/class) includes this file.
get_filename_component(STEPWISE_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
include("${CMAKE_CURRENT_LIST_DIR}/BrokenPatch.cmake")  # broken submissions written as patches

# The runner, which says each check's kind when CTest lists the tests (cmake/test_kinds.cmake): this
# build's, or in a project built on a course build (a student's copy), that build's.
if(DEFINED STEPWISE_RUNNER)
  set(STEPWISE_KINDS_RUNNER "${STEPWISE_RUNNER}")
else()
  set(STEPWISE_KINDS_RUNNER "$<TARGET_FILE:stepwise>")
endif()

# The lock file of the GPU (grader/shared_run.h): every lesson check holds it shared while it
# runs, a speed check or a correctness check that compares times holds it alone. CTest gives its
# name to each check, broken submission and trick test (the runner reads it from there); the
# demos take it with flock.
set(STEPWISE_GPU_LOCK "${PROJECT_BINARY_DIR}/results/gpu.lock")
file(MAKE_DIRECTORY "${PROJECT_BINARY_DIR}/results")
find_program(STEPWISE_FLOCK flock DOC "util-linux's flock, with which the demos share the GPU lock")

# The speed tricks every lesson with speed checks is tried with (grader/trace.h), in its speed
# checks, where every student call timed as a grader::Workload is.
set(STEPWISE_SPEED_TRICKS skip-repeated checked-only hidden-work)

function(add_lesson lesson)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "LIBRARIES;DEMO_LIBRARIES;DEMO_ARGS;SANITIZERS;TRICKS")
  string(SUBSTRING "${lesson}" 0 2 nn)
  set(exercise_dir "${PROJECT_SOURCE_DIR}/lessons/${lesson}")
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${lesson}")
  set(sanitizers memcheck ${ARG_SANITIZERS})
  list(REMOVE_DUPLICATES sanitizers)

  file(GLOB lesson_sources CONFIGURE_DEPENDS RELATIVE "${exercise_dir}" "${exercise_dir}/*.cu" "${exercise_dir}/*.cpp")
  list(REMOVE_ITEM lesson_sources demo.cu demo.cpp)
  stepwise_split_lesson_sources(${lesson} "${lesson_sources}" api_sources given_sources)
  file(GLOB demo_source CONFIGURE_DEPENDS "${exercise_dir}/demo.cu" "${exercise_dir}/demo.cpp")
  file(GLOB test_source CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/grader/tests/${lesson}.cu"
                                          "${PROJECT_SOURCE_DIR}/grader/tests/${lesson}.cpp")
  if(NOT api_sources OR NOT demo_source OR NOT test_source)
    message(FATAL_ERROR "lesson ${lesson} needs lessons/${lesson}/*.cu (the exercise), "
                        "lessons/${lesson}/demo.cu and grader/tests/${lesson}.cu")
  endif()
  stepwise_exercise_files(${lesson} "${api_sources}" exercise_files)
  stepwise_require_solution_twins(${lesson} "${exercise_files}")
  stepwise_describe_for_class(${lesson} "${api_sources}" "${exercise_files}" "${given_sources}" "${test_source}"
                              "${ARG_LIBRARIES}" "${sanitizers}")
  add_custom_target(lesson${nn}-all)
  if(given_sources)
    list(TRANSFORM given_sources PREPEND "${exercise_dir}/" OUTPUT_VARIABLE sources)
    add_library(lesson${nn}-given STATIC ${sources})
    stepwise_lesson_code(lesson${nn}-given ${lesson} "${exercise_dir}" "${ARG_LIBRARIES}")
  endif()

  foreach(track exercise solution)
    if(track STREQUAL "exercise")
      set(source_dir "${exercise_dir}")
      set(suffix "")
    else()
      set(source_dir "${solution_dir}")
      set(suffix "-solution")
    endif()
    list(TRANSFORM api_sources PREPEND "${source_dir}/" OUTPUT_VARIABLE sources)
    set(implementation lesson${nn}-${track})
    add_library(${implementation} STATIC ${sources})
    stepwise_lesson_code(${implementation} ${lesson} "${source_dir}" "${ARG_LIBRARIES}")
    stepwise_link_given(${implementation} ${lesson})

    add_executable(lesson${nn}-demo${suffix} ${demo_source})
    stepwise_lesson_code(lesson${nn}-demo${suffix} ${lesson} "${source_dir}" "")
    target_link_libraries(lesson${nn}-demo${suffix} PRIVATE ${implementation} ${ARG_DEMO_LIBRARIES})

    # The checks, compiled once per track: the test program and every broken submission of
    # this track link the same objects.
    set(checks lesson${nn}-checks-${track})
    add_library(${checks} OBJECT ${test_source})
    stepwise_lesson_code(${checks} ${lesson} "${source_dir}" "${ARG_LIBRARIES}")
    target_link_libraries(${checks} PRIVATE grader::harness)

    stepwise_add_test_program(lesson${nn}-tests${suffix} LESSON ${lesson} TRACK ${track}
                              SANITIZERS ${sanitizers} STUDENT ${implementation} CHECKS ${checks}
                              LINK ${checks} ${implementation} ${ARG_LIBRARIES})
    stepwise_discover_tests(lesson${nn}-tests${suffix} ${lesson} ${track} SPEED_FOUND lesson${nn}_${track}_speed)
    add_dependencies(lesson${nn}-all ${implementation} lesson${nn}-demo${suffix} lesson${nn}-tests${suffix})
  endforeach()

  stepwise_add_tuned(${lesson} "${ARG_LIBRARIES}" "${api_sources}" "${sanitizers}")

  # The demo shares the GPU lock as the checks do (util-linux's flock), so it never runs beside a
  # timing; without flock it runs alone.
  set(shared_gpu "")
  set(serial TRUE)
  if(STEPWISE_FLOCK)
    set(shared_gpu "${STEPWISE_FLOCK}" --shared "${STEPWISE_GPU_LOCK}")
    set(serial FALSE)
  endif()
  add_test(NAME ${lesson}/solution/demo COMMAND ${shared_gpu} $<TARGET_FILE:lesson${nn}-demo-solution> ${ARG_DEMO_ARGS}
           WORKING_DIRECTORY "${PROJECT_BINARY_DIR}")
  set_tests_properties(${lesson}/solution/demo PROPERTIES
    LABELS "lesson-${nn};solution;demo;gpu" SKIP_RETURN_CODE 77 RUN_SERIAL ${serial})

  stepwise_add_todo_lint(${lesson})
  # The trick tests, added when CTest lists the tests: the speed tricks only if the solution's
  # program has a check of kind speed, which the runner says after its discovery (SPEED_FOUND).
  set(trace_tricks "")
  foreach(trick IN LISTS ARG_TRICKS)
    if(trick IN_LIST STEPWISE_SPEED_TRICKS)
      message(FATAL_ERROR "lesson ${lesson}: TRICKS names the speed trick '${trick}', which every lesson "
                          "with speed checks gets by itself: leave it out")
    endif()
    stepwise_trick_test(${lesson} ${trick} correctness trace_tricks)
  endforeach()
  set(speed_tricks "")
  foreach(trick IN LISTS STEPWISE_SPEED_TRICKS)
    stepwise_trick_test(${lesson} ${trick} speed speed_tricks)
  endforeach()
  file(GENERATE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/tricks.cmake"
       CONTENT "${trace_tricks}if(lesson${nn}_solution_speed)\n${speed_tricks}endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${CMAKE_CURRENT_BINARY_DIR}/tricks.cmake")
  file(GLOB broken CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/grader/broken/${lesson}/*.cu"
                                     "${PROJECT_SOURCE_DIR}/grader/broken/${lesson}/*.patch")
  set(broken_tests "")   # each broken submission's test, and the checks it fails (its filter)
  set(broken_checks "")
  foreach(file IN LISTS broken)
    stepwise_add_broken_submission(${lesson} "${file}" "${sanitizers}" "${ARG_LIBRARIES}" "${api_sources}")
  endforeach()
  stepwise_set_broken_test_kinds(TESTS ${broken_tests} CHECKS ${broken_checks})
  set_property(GLOBAL APPEND PROPERTY STEPWISE_TEST_PROGRAMS_exercise lesson${nn}-tests)
  set_property(GLOBAL APPEND PROPERTY STEPWISE_TEST_PROGRAMS_solution lesson${nn}-tests-solution)
endfunction()

# The test <NN-slug>/trick/<trick>, appended to <out> as the lines of a file CTest reads (file(GENERATE)
# content): the lesson's reference solution run with the trick over its checks of <kind>
# (correctness or speed: grader/broken/expect_trick.cmake asks the runner for their filter).
function(stepwise_trick_test lesson trick kind out)
  string(SUBSTRING "${lesson}" 0 2 nn)
  set(name "[==[${lesson}/trick/${trick}]==]")
  string(APPEND ${out} "\
add_test(${name} \"${CMAKE_COMMAND}\" \"-DPROGRAM=$<TARGET_FILE:lesson${nn}-tests-solution>\" \"-DTRICK=${trick}\"
  \"-DFILTER=${kind}\" \"-DRUNNER=$<TARGET_FILE:stepwise>\" -P \"${PROJECT_SOURCE_DIR}/grader/broken/expect_trick.cmake\")
set_tests_properties(${name} PROPERTIES LABELS \"lesson-${nn};selftest;broken;gpu\" TIMEOUT 600
  SKIP_REGULAR_EXPRESSION [==[\\[  SKIPPED \\]]==] ENVIRONMENT \"STEPWISE_GPU_LOCK=${STEPWISE_GPU_LOCK}\")
")
  set(${out} "${${out}}" PARENT_SCOPE)
endfunction()

# The tuned version of a lesson, if it has one: solutions/<NN-slug>/tuned/*.cu, a drop-in for the
# reference solution that goes further for speed (the README's "The tuned version"). Each tuned
# file replaces the solution's file whose name, less ".cu", starts its own and a '_'
# (vector_add_float4.cu replaces vector_add.cu). Graded as its own track, "tuned": the program
# bin/lessonNN-tests-tuned links the solution's checks with the solution's files and the tuned
# ones in their place, its checks are CTest tests <NN-slug>/tuned/<Suite>.<Test>, and
# `stepwise grade --track tuned` then `stepwise table --track tuned` give the README's figures of
# it. Left out of a class's sample submissions (grader/class/selftest/make_class.cmake).
function(stepwise_add_tuned lesson libraries api_sources sanitizers)
  string(SUBSTRING "${lesson}" 0 2 nn)
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${lesson}")
  file(GLOB tuned_sources CONFIGURE_DEPENDS RELATIVE "${solution_dir}/tuned" "${solution_dir}/tuned/*.cu"
                                                     "${solution_dir}/tuned/*.cpp")
  if(NOT tuned_sources)
    return()
  endif()
  list(TRANSFORM api_sources PREPEND "${solution_dir}/" OUTPUT_VARIABLE sources)
  foreach(tuned IN LISTS tuned_sources)
    set(replaced "")
    foreach(source IN LISTS api_sources)
      get_filename_component(stem "${source}" NAME_WLE)
      string(FIND "${tuned}" "${stem}_" at)
      if(at EQUAL 0)
        set(replaced "${source}")
      endif()
    endforeach()
    if(NOT replaced)
      message(FATAL_ERROR "solutions/${lesson}/tuned/${tuned} replaces no file of the solution: name it "
                          "<file>_<what>.cu after the file it replaces (one of: ${api_sources})")
    endif()
    list(REMOVE_ITEM sources "${solution_dir}/${replaced}")
    list(APPEND sources "${solution_dir}/tuned/${tuned}")
  endforeach()
  add_library(lesson${nn}-tuned STATIC ${sources})
  stepwise_lesson_code(lesson${nn}-tuned ${lesson} "${solution_dir}" "${libraries}")
  stepwise_link_given(lesson${nn}-tuned ${lesson})
  stepwise_add_test_program(lesson${nn}-tests-tuned LESSON ${lesson} TRACK tuned SANITIZERS ${sanitizers}
                            STUDENT lesson${nn}-tuned CHECKS lesson${nn}-checks-solution
                            LINK lesson${nn}-checks-solution lesson${nn}-tuned ${libraries})
  stepwise_discover_tests(lesson${nn}-tests-tuned ${lesson} tuned)
  add_dependencies(lesson${nn}-all lesson${nn}-tests-tuned)
endfunction()

# The lesson's sources (<sources>: the .cu and .cpp files of lessons/<NN-slug> but the demo), in
# two lists of names relative to that folder:
#   <out_exercise>  the exercise sources: those with a twin in solutions/<NN-slug>/, and those with
#                   a STEPWISE_TODO line (which stepwise_require_solution_twins then asks a twin of)
#   <out_given>     given code: no twin, no STEPWISE_TODO. Compiled once, into lessonNN-given (with
#                   the exercise's folder on the include path: it includes no header that holds a
#                   step), which every implementation of the lesson links (stepwise_link_given).
#                   For code that is slow to compile and not the student's to change (lesson 13's
#                   CUB calls): no save of an exercise file compiles it again. A class build
#                   never takes it from a student's folder (grader/class).
function(stepwise_split_lesson_sources lesson sources out_exercise out_given)
  set(lesson_dir "${PROJECT_SOURCE_DIR}/lessons/${lesson}")
  # Twins come and go with files in solutions/: globbed, so that one added or removed configures again.
  file(GLOB twins CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}/solutions/${lesson}"
       "${PROJECT_SOURCE_DIR}/solutions/${lesson}/*.cu" "${PROJECT_SOURCE_DIR}/solutions/${lesson}/*.cpp")
  set(exercise "")
  set(given "")
  foreach(source IN LISTS sources)
    file(READ "${lesson_dir}/${source}" text)
    if(source IN_LIST twins OR text MATCHES "STEPWISE_TODO\\(")
      list(APPEND exercise ${source})
    else()
      list(APPEND given ${source})
    endif()
  endforeach()
  set(${out_exercise} ${exercise} PARENT_SCOPE)
  set(${out_given} ${given} PARENT_SCOPE)
endfunction()

# Links <target> (an implementation of <lesson>: a track's, the tuned one, a broken submission's, a
# student's in a class build) with the lesson's given code, if it has any: lessonNN-given, or in a
# project built on a course build (grader/class) that build's, stepwise_built::lessonNN-given. The
# target's STEPWISE_GIVEN property names it for stepwise_add_test_program.
function(stepwise_link_given target lesson)
  string(SUBSTRING "${lesson}" 0 2 nn)
  foreach(given lesson${nn}-given stepwise_built::lesson${nn}-given)
    if(TARGET ${given})
      target_link_libraries(${target} PRIVATE ${given})
      set_target_properties(${target} PROPERTIES STEPWISE_GIVEN ${given})
      return()
    endif()
  endforeach()
endfunction()

# The files a student completes: the exercise sources and the exercise headers that hold a step
# (a STEPWISE_TODO line: templates). Names relative to lessons/<NN-slug>.
function(stepwise_exercise_files lesson api_sources out)
  file(GLOB headers CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}/lessons/${lesson}"
       "${PROJECT_SOURCE_DIR}/lessons/${lesson}/*.h" "${PROJECT_SOURCE_DIR}/lessons/${lesson}/*.cuh")
  set(files ${api_sources})
  foreach(header IN LISTS headers)
    file(READ "${PROJECT_SOURCE_DIR}/lessons/${lesson}/${header}" text)
    if(text MATCHES "STEPWISE_TODO\\(")
      list(APPEND files ${header})
    endif()
  endforeach()
  set(${out} ${files} PARENT_SCOPE)
endfunction()

# Every exercise file has a solution twin.
function(stepwise_require_solution_twins lesson exercise_files)
  foreach(file IN LISTS exercise_files)
    if(NOT EXISTS "${PROJECT_SOURCE_DIR}/solutions/${lesson}/${file}")
      message(FATAL_ERROR "solutions/${lesson}/${file} is missing: every exercise file with a "
                          "step needs its reference solution under the same name")
    endif()
  endforeach()
endfunction()

# What grading a class (grader/class) needs to know of a lesson, collected for
# stepwise_export_for_class (cmake/ClassExport.cmake).
function(stepwise_describe_for_class lesson api_sources exercise_files given_sources test_source libraries sanitizers)
  string(SUBSTRING "${lesson}" 0 2 nn)
  string(JOIN "\n" text
    "set(STEPWISE_LESSON_${nn}_SLUG \"${lesson}\")"
    "set(STEPWISE_LESSON_${nn}_SOURCES \"${api_sources}\")"
    "set(STEPWISE_LESSON_${nn}_FILES \"${exercise_files}\")"
    "set(STEPWISE_LESSON_${nn}_GIVEN \"${given_sources}\")"
    "set(STEPWISE_LESSON_${nn}_TEST_SOURCE \"${test_source}\")"
    "set(STEPWISE_LESSON_${nn}_LIBRARIES \"${libraries}\")"
    "set(STEPWISE_LESSON_${nn}_SANITIZERS \"${sanitizers}\")"
    "set(STEPWISE_LESSON_${nn}_LIST_PROGRAM \"$<TARGET_FILE:lesson${nn}-tests>\")"
    "")
  set_property(GLOBAL APPEND_STRING PROPERTY STEPWISE_CLASS_DESCRIPTION "${text}")
  set_property(GLOBAL APPEND PROPERTY STEPWISE_CLASS_LESSONS ${lesson})
endfunction()

# Compile settings shared by a lesson's implementation, demo and tests: the track's folder
# first on the include path (a solution header replaces the exercise's), then the lesson's.
function(stepwise_lesson_code target lesson source_dir libraries)
  target_include_directories(${target} PRIVATE "${source_dir}" "${STEPWISE_SOURCE_DIR}/lessons/${lesson}")
  target_compile_definitions(${target} PRIVATE STEPWISE_LESSON_DIR="lessons/${lesson}")
  target_link_libraries(${target} PRIVATE stepwise::common stepwise::warnings ${libraries})
endfunction()

# A grader test program: the checks' objects + an implementation + the harness + its own
# identity (which lesson and track it grades and which sanitizer checks it has, for the records)
# + the list of the kernels nvcc built into the graded code (STUDENT: a static library of it) and
# into the checks (CHECKS: an object library), which the trace of what ran tells apart from a
# library's (grader/trace.h, cmake/ListKernels.cmake) + where nvcc keeps the PTX of the graded
# code and of the checks (whose kernels include the templates of the student's headers), which
# .cu files each has now and which CUDA architectures are built (grader/machine_code.h: PTX left
# by a file since renamed, or by an architecture no longer built, is not read).
function(stepwise_add_test_program target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "EXCLUDE_FROM_ALL" "LESSON;TRACK;STUDENT;CHECKS" "LINK;SANITIZERS")
  set(exclude "")
  if(ARG_EXCLUDE_FROM_ALL)
    set(exclude EXCLUDE_FROM_ALL)
  endif()
  set(kernels_source "${CMAKE_CURRENT_BINARY_DIR}/${target}_kernels.cpp")
  set(student_files "")
  set(checks_files "")
  set(depends "${STEPWISE_SOURCE_DIR}/cmake/ListKernels.cmake")
  set(device_code_dir "")
  set(device_code_sources "")
  set(checks_code_dir "")
  set(checks_code_sources "")
  if(ARG_STUDENT)
    set(student_files "$<TARGET_FILE:${ARG_STUDENT}>")
    list(APPEND depends ${ARG_STUDENT})
    stepwise_keep_device_code(${ARG_STUDENT} device_code_dir device_code_sources)
    # The lesson's given code: its kernels are listed with the student's, as they would be in an
    # exercise file (a library's, CUB's, are the library's all the same: grader/trace.h); its PTX
    # is not the student's to answer for, and is not read.
    get_target_property(given ${ARG_STUDENT} STEPWISE_GIVEN)
    if(given)
      string(APPEND student_files "|$<TARGET_FILE:${given}>")
      get_target_property(imported ${given} IMPORTED)
      if(imported)
        list(APPEND depends "$<TARGET_FILE:${given}>")
      else()
        list(APPEND depends ${given})
      endif()
    endif()
  endif()
  if(ARG_CHECKS)
    set(checks_files "$<JOIN:$<TARGET_OBJECTS:${ARG_CHECKS}>,|>")
    list(APPEND depends "$<TARGET_OBJECTS:${ARG_CHECKS}>")
    stepwise_keep_device_code(${ARG_CHECKS} checks_code_dir checks_code_sources)
  endif()
  stepwise_device_code_architectures(architectures)
  add_custom_command(OUTPUT "${kernels_source}"
    COMMAND "${CMAKE_COMMAND}" "-DNM=${CMAKE_NM}" "-DOUTPUT=${kernels_source}" "-DSTUDENT=${student_files}"
            "-DCHECKS=${checks_files}" -P "${STEPWISE_SOURCE_DIR}/cmake/ListKernels.cmake"
    DEPENDS ${depends}
    COMMENT "listing the kernels of ${target}" VERBATIM)
  add_executable(${target} ${exclude} "${STEPWISE_SOURCE_DIR}/grader/harness/src/identity.cpp"
                 "${STEPWISE_SOURCE_DIR}/grader/harness/src/machine_code_build.cpp" "${kernels_source}")
  list(JOIN ARG_SANITIZERS "," sanitizers)  # a ';' would split the definition
  target_compile_definitions(${target} PRIVATE STEPWISE_LESSON="${ARG_LESSON}" STEPWISE_TRACK="${ARG_TRACK}"
                                               STEPWISE_SANITIZERS="${sanitizers}"
                                               STEPWISE_DEVICE_CODE_DIR="${device_code_dir}"
                                               STEPWISE_DEVICE_CODE_SOURCES="${device_code_sources}"
                                               STEPWISE_DEVICE_CODE_CHECKS_DIR="${checks_code_dir}"
                                               STEPWISE_DEVICE_CODE_CHECKS_SOURCES="${checks_code_sources}"
                                               STEPWISE_DEVICE_CODE_ARCHITECTURES="${architectures}")
  target_link_libraries(${target} PRIVATE ${ARG_LINK} grader::harness)
  # <program>.checks, touched when what decides the program's list of checks is built again (the
  # checks' objects, the harness, the program's own sources), and not when only the graded code
  # is: the runner keeps its CTest listing while a student rebuilds (runner/src/ctest_listing.h).
  if(ARG_CHECKS)
    get_target_property(program_dir ${target} RUNTIME_OUTPUT_DIRECTORY)
    if(NOT program_dir)
      set(program_dir "${CMAKE_CURRENT_BINARY_DIR}")
    endif()
    set(checks_stamp "${program_dir}/${target}.checks")
    add_custom_command(OUTPUT "${checks_stamp}"
      COMMAND "${CMAKE_COMMAND}" -E touch "${checks_stamp}"
      DEPENDS "$<TARGET_OBJECTS:${ARG_CHECKS}>" "$<TARGET_FILE:grader::harness>"
              "${STEPWISE_SOURCE_DIR}/grader/harness/src/identity.cpp"
              "${STEPWISE_SOURCE_DIR}/grader/harness/src/machine_code_build.cpp"
      VERBATIM)
    target_sources(${target} PRIVATE "${checks_stamp}")
  endif()
endfunction()

# The device code of <code> (the student's files, or the checks), for the machine-code checks
# (grader/machine_code.h): nvcc keeps what it makes while compiling <code> (-keep), the PTX of each
# file among it, in a folder of its own, which <out_dir> names (once per target; "" for an
# imported target, whose build is not this one's), and <out_sources> lists <code>'s .cu files of
# now ('|'-separated; "" with no folder). nvcc never removes what it kept: the check reads only
# the PTX of those files, for the architectures built now (stepwise_device_code_architectures).
function(stepwise_keep_device_code code out_dir out_sources)
  get_target_property(imported ${code} IMPORTED)
  if(imported)
    set(${out_dir} "" PARENT_SCOPE)
    set(${out_sources} "" PARENT_SCOPE)
    return()
  endif()
  get_target_property(dir ${code} STEPWISE_DEVICE_CODE_DIR)
  if(NOT dir)
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/device-code/${code}")
    file(MAKE_DIRECTORY "${dir}")
    target_compile_options(${code} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:--keep --keep-dir \"${dir}\">")
    set_target_properties(${code} PROPERTIES STEPWISE_DEVICE_CODE_DIR "${dir}")
  endif()
  set(${out_dir} "${dir}" PARENT_SCOPE)
  set(${out_sources} "$<JOIN:$<FILTER:$<TARGET_PROPERTY:${code},SOURCES>,INCLUDE,\\.cu$>,|>" PARENT_SCOPE)
endfunction()

# The CUDA architectures this directory's code is built for, as CMAKE_CUDA_ARCHITECTURES spells
# them, ','-separated (a ';' would split the definition): the machine-code checks read the PTX of
# these only (grader::virtual_architectures makes the names nvcc gives it). "native" is the list
# CMake found on this machine, where it says; a list nvcc alone resolves ("all") stays as it is.
function(stepwise_device_code_architectures out)
  set(architectures "${CMAKE_CUDA_ARCHITECTURES}")
  if(architectures STREQUAL "native" AND CMAKE_CUDA_ARCHITECTURES_NATIVE)
    set(architectures "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
  endif()
  list(JOIN architectures "," architectures)
  set(${out} "${architectures}" PARENT_SCOPE)
endfunction()

# CTest tests, one per GoogleTest test, named <NN-slug>/<track>/<Suite>.<Test>, labelled
# lesson-NN, the track, and by the check's kind (grader::check_labels, grader/check_kind.h: e.g.
# "speed;gpu", "correctness;cpu"). Speed checks run alone, never beside another test (timings);
# the others side by side, a sanitizer check counting as two of CTest's jobs (compute-sanitizer
# is slow and busy, but times nothing), all holding the runner's GPU lock (grader/shared_run.h: a
# correctness check that compares times holds it alone). The tests are discovered when CTest runs
# (so a machine without a GPU can list them); a file CTest reads right after the discovery gives
# each its kind's properties, asking the runner once for them all (cmake/test_kinds.cmake).
# (The suite in a CTest name is GoogleTest's for TEST and TEST_P; the course has no TYPED_TEST or
# DISABLED_ test, whose names gtest_discover_tests shortens.)
# Listing a test program's checks takes half a second, but CTest lists them all as it starts, on
# a machine still busy with the build: GoogleTest's default 5 s once timed out on the 2-core CI
# machine (lesson06-tests, "Process terminated due to timeout").
set(STEPWISE_DISCOVERY_TIMEOUT 60)

function(stepwise_discover_tests target lesson track)
  cmake_parse_arguments(PARSE_ARGV 3 ARG "" "SPEED_FOUND" "")
  string(SUBSTRING "${lesson}" 0 2 nn)
  set(prefix "${lesson}/${track}/")
  string(MAKE_C_IDENTIFIER "${target}_checks" found)
  gtest_discover_tests(${target}
    TEST_PREFIX "${prefix}"
    TEST_LIST ${found}
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT ${STEPWISE_DISCOVERY_TIMEOUT}
    PROPERTIES TIMEOUT 600 ENVIRONMENT "STEPWISE_GPU_LOCK=${STEPWISE_GPU_LOCK}")
  set(kinds_file "${CMAKE_CURRENT_BINARY_DIR}/${found}_kinds.cmake")
  file(GENERATE OUTPUT "${kinds_file}" CONTENT "\
if(${found})
  include(\"${STEPWISE_SOURCE_DIR}/cmake/test_kinds.cmake\")
  stepwise_set_check_kinds(\"${STEPWISE_KINDS_RUNNER}\" TESTS \${${found}} PREFIX \"${prefix}\"
                           KIND_LABELS lesson-${nn} ${track} SPEED_FOUND \"${ARG_SPEED_FOUND}\")
endif()
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${kinds_file}")
endfunction()

# stepwise_discover_gtests(<target> PREFIX <p> FILTER <gtest filter> LABELS <label>... [SERIAL]
#                          [PROCESSORS <n>])
# The GoogleTest tests of <target> that match FILTER become CTest tests named <p><Suite>.<Test>,
# discovered when CTest runs (so a machine without a GPU can list them). SERIAL: never run beside
# another test (timings). PROCESSORS: how many of CTest's parallel jobs one test counts as. The
# labels are a list, which gtest_discover_tests' PROPERTIES cannot carry; a file CTest reads right
# after the discovery sets them.
function(stepwise_discover_gtests target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "SERIAL" "PREFIX;FILTER;PROCESSORS" "LABELS")
  set(extra "")
  if(ARG_SERIAL)
    list(APPEND extra RUN_SERIAL TRUE)
  endif()
  if(ARG_PROCESSORS)
    list(APPEND extra PROCESSORS ${ARG_PROCESSORS})
  endif()
  string(MAKE_C_IDENTIFIER "${target}_${ARG_LABELS}_tests" found)
  gtest_discover_tests(${target}
    TEST_PREFIX "${ARG_PREFIX}"
    TEST_FILTER "${ARG_FILTER}"
    TEST_LIST ${found}
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT ${STEPWISE_DISCOVERY_TIMEOUT}
    PROPERTIES TIMEOUT 600 ${extra})
  set(labels_file "${CMAKE_CURRENT_BINARY_DIR}/${found}_labels.cmake")
  file(WRITE "${labels_file}"
       "if(${found})\n  set_tests_properties(\${${found}} PROPERTIES LABELS \"${ARG_LABELS}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels_file}")
endfunction()

# A lint check that needs the GPU: every check of the untouched exercise must fail with
# "not implemented yet: lessons/<NN-slug>/README.md step N" (TODO), none may crash or pass.
function(stepwise_add_todo_lint lesson)
  string(SUBSTRING "${lesson}" 0 2 nn)
  add_test(NAME lint/${lesson}/exercise-reports-todo
    COMMAND "${CMAKE_COMMAND}" -DPROGRAM=$<TARGET_FILE:lesson${nn}-tests> -DLESSON=${lesson}
            -P "${PROJECT_SOURCE_DIR}/grader/lint/expect_todo.cmake")
  set_tests_properties(lint/${lesson}/exercise-reports-todo PROPERTIES
    LABELS "lesson-${nn};lint;selftest;gpu" SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
endfunction()

# A broken submission: a faulty implementation linked with the lesson's checks as compiled for
# the solution, written one of two ways:
#   grader/broken/<NN-slug>/<name>.patch  the mistake as a patch to the solution's files, applied
#                                         at configure time (cmake/BrokenPatch.cmake); the
#                                         submission is the solution's sources with the patched
#                                         ones in their place (given code is not patched). For a mistake in the solution's code
#                                         (a patched header that the checks include compiles them
#                                         again with it: a step written as a template).
#   grader/broken/<NN-slug>/<name>.cu     a file of its own that #includes the solution's source
#                                         and replaces one function (#define f reference_f), for
#                                         code the solution does not hold (a lesson's own trick,
#                                         a wrapper around the reference). The tricks any lesson's
#                                         speed checks must catch are played by the harness
#                                         instead (STEPWISE_SPEED_TRICKS).
# Its header (the patch's first lines, before the diff) says what is wrong and what the grader
# must say about it:
#   // broken: <what is wrong, in words>
#   // fails: <GoogleTest filter: the checks that must fail>
#   // expect: <regex the failing output must match>
# The test passes only if those checks fail, cleanly, with output matching the regex: proof that
# the grader catches that mistake and says where it is.
function(stepwise_add_broken_submission lesson file sanitizers libraries api_sources)
  string(SUBSTRING "${lesson}" 0 2 nn)
  get_filename_component(name "${file}" NAME_WE)
  file(RELATIVE_PATH shown "${PROJECT_SOURCE_DIR}" "${file}")
  file(READ "${file}" text LIMIT 4000)
  foreach(field broken fails expect)
    if(NOT text MATCHES "// ${field}: ([^\n]+)")
      message(FATAL_ERROR "${shown} needs a '// ${field}: ...' line in its header "
                          "(see stepwise_add_broken_submission in cmake/AddLesson.cmake)")
    endif()
    set(${field} "${CMAKE_MATCH_1}")
    if(${field} MATCHES ";")
      message(FATAL_ERROR "${shown}: '// ${field}:' may not hold ';'")
    endif()
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")

  set(target lesson${nn}-broken-${name})
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${lesson}")
  set(checks lesson${nn}-checks-solution)
  if(file MATCHES "\\.patch$")
    # The solution's sources, each file the patch changes taken from the build folder (patched
    # headers too: that folder comes first on the include path).
    set(patched_dir "${CMAKE_CURRENT_BINARY_DIR}/broken/${name}")
    stepwise_apply_broken_patch(${lesson} "${file}" "${patched_dir}" patched)
    set(sources "")
    foreach(source IN LISTS api_sources)
      if(source IN_LIST patched)
        list(APPEND sources "${patched_dir}/${source}")
      else()
        list(APPEND sources "${solution_dir}/${source}")
      endif()
    endforeach()
    add_library(${target}-code STATIC EXCLUDE_FROM_ALL ${sources})
    stepwise_lesson_code(${target}-code ${lesson} "${solution_dir}" "${libraries}")
    target_include_directories(${target}-code BEFORE PRIVATE "${patched_dir}")
    # A patched header may hold a step the checks instantiate (a template): then the checks are
    # compiled again with it, as a class build does for a student's headers.
    set(patched_headers ${patched})
    list(REMOVE_ITEM patched_headers ${api_sources})
    if(patched_headers)
      set(checks ${target}-checks)
      get_target_property(test_source lesson${nn}-checks-solution SOURCES)
      add_library(${checks} OBJECT EXCLUDE_FROM_ALL ${test_source})
      stepwise_lesson_code(${checks} ${lesson} "${solution_dir}" "${libraries}")
      target_include_directories(${checks} BEFORE PRIVATE "${patched_dir}")
      target_link_libraries(${checks} PRIVATE grader::harness)
    endif()
  else()
    # The broken file #includes one of the solution's sources and replaces one function; the
    # solution's other sources come as they are.
    set(sources "${file}")
    foreach(source IN LISTS api_sources)
      string(FIND "${text}" "solutions/${lesson}/${source}\"" included)
      if(included EQUAL -1)
        list(APPEND sources "${solution_dir}/${source}")
      endif()
    endforeach()
    add_library(${target}-code STATIC EXCLUDE_FROM_ALL ${sources})
    stepwise_lesson_code(${target}-code ${lesson} "${solution_dir}" "${libraries}")
    target_include_directories(${target}-code PRIVATE "${PROJECT_SOURCE_DIR}")
  endif()
  # It links what the solution links, the lesson's given code too.
  stepwise_link_given(${target}-code ${lesson})
  stepwise_add_test_program(${target} EXCLUDE_FROM_ALL LESSON ${lesson} TRACK broken-${name}
                            SANITIZERS ${sanitizers} STUDENT ${target}-code CHECKS ${checks}
                            LINK ${checks} ${target}-code ${libraries})
  stepwise_lesson_code(${target} ${lesson} "${PROJECT_SOURCE_DIR}/solutions/${lesson}" "${libraries}")
  add_dependencies(selftests ${target})
  add_dependencies(lesson${nn}-all ${target})
  add_test(NAME ${lesson}/broken/${name}
    COMMAND "${CMAKE_COMMAND}" -DPROGRAM=$<TARGET_FILE:${target}> "-DCHECKS=${fails}"
            "-DEXPECT=${expect}" "-DSOURCE=${shown}" -P "${PROJECT_SOURCE_DIR}/grader/broken/expect_failure.cmake")
  # RUN_SERIAL and PROCESSORS as the checks it fails: set when CTest lists the tests, once the
  # runner that knows their kinds is built (stepwise_set_broken_test_kinds).
  set_tests_properties(${lesson}/broken/${name} PROPERTIES
    LABELS "lesson-${nn};selftest;broken;gpu" TIMEOUT 600
    SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]" ENVIRONMENT "STEPWISE_GPU_LOCK=${STEPWISE_GPU_LOCK}")
  list(APPEND broken_tests "${lesson}/broken/${name}")
  list(APPEND broken_checks "${fails}")
  set(broken_tests "${broken_tests}" PARENT_SCOPE)
  set(broken_checks "${broken_checks}" PARENT_SCOPE)
endfunction()

# stepwise_set_broken_test_kinds(TESTS <test>... CHECKS <filter>...): the broken-submission tests
# of this folder run alone if they fail a speed check, count as two of CTest's jobs if they fail a
# sanitizer check (cmake/test_kinds.cmake, when CTest lists them). The kinds are the runner's, not
# known at configure time, and CTest reads a folder's TEST_INCLUDE_FILES before its own add_test
# lines: so the script is named by a sub-folder of no targets (cmake/broken-test-kinds), which
# CTest reads after them.
function(stepwise_set_broken_test_kinds)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "" "TESTS;CHECKS")
  if(NOT ARG_TESTS)
    return()
  endif()
  list(JOIN ARG_TESTS "]==] [==[" tests)  # bracket arguments in the script
  list(JOIN ARG_CHECKS "]==] [==[" checks)
  file(GENERATE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/broken-test-kinds/kinds.cmake" CONTENT "\
include(\"${STEPWISE_SOURCE_DIR}/cmake/test_kinds.cmake\")
stepwise_set_check_kinds(\"${STEPWISE_KINDS_RUNNER}\" TESTS [==[${tests}]==] CHECKS [==[${checks}]==])
")
  add_subdirectory("${STEPWISE_SOURCE_DIR}/cmake/broken-test-kinds" broken-test-kinds)
endfunction()
