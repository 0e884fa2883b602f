# Read by CTest in a student's folder of the class build (students/<id>/checks.cmake sets the
# variables): one test per check of each lesson whose program was built, named
# <NN-slug>/class/<id>/<Suite.Test>. `stepwise class-check` runs it: one check, within the time
# limit, on the GPU CTest gives it, its record written to <results>. A lesson that did not build
# has no tests: its record says so (stepwise class writes it).
foreach(pair IN LISTS programs)
  string(REGEX MATCH "^([^=]+)=(.*)$" ignored "${pair}")
  set(lesson "${CMAKE_MATCH_1}")
  set(program "${CMAKE_MATCH_2}")
  string(SUBSTRING "${lesson}" 0 2 nn)
  if(NOT EXISTS "${program}" OR NOT EXISTS "${check_lists}/${lesson}.txt")
    continue()
  endif()
  file(STRINGS "${check_lists}/${lesson}.txt" lines)
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^([^ ]+) ([a-z]+) ([^ ]+)$")  # <Suite.Test> <kind> <labels>
      continue()
    endif()
    set(check "${CMAKE_MATCH_1}")
    set(kind "${CMAKE_MATCH_2}")
    string(REPLACE "," ";" labels "${CMAKE_MATCH_3}")
    set(name "${lesson}/class/${student}/${check}")
    add_test("${name}" "${runner}" class-check --program "${program}" --lesson "${lesson}"
             --student "${student}" --check "${check}" --results "${results}" --scratch "${scratch}"
             --time-limit "${time_limit}")
    # Labelled and of the kind listed (`stepwise list-checks`, grader/runner/src/list_checks.h): a
    # GPU check takes one share of a GPU, a speed or sanitizer check all of it, so that no other
    # check runs beside it on that GPU, a cpu check none.
    set(gpu "gpus:1")
    if(kind STREQUAL "speed" OR kind STREQUAL "sanitizer")
      set(gpu "gpus:${checks_per_gpu}")
    elseif(kind STREQUAL "cpu")
      set(gpu "")
    endif()
    math(EXPR limit "${time_limit} + 60")  # the runner stops the check first; this is a backstop
    set_tests_properties("${name}" PROPERTIES LABELS "class;student-${student};lesson-${nn};${labels}"
                         TIMEOUT ${limit} SKIP_RETURN_CODE 77 WORKING_DIRECTORY "${scratch}")
    if(gpu)
      set_tests_properties("${name}" PROPERTIES RESOURCE_GROUPS "${gpu}")
    endif()
    if(environment)
      set_tests_properties("${name}" PROPERTIES ENVIRONMENT "${environment}")
    endif()
  endforeach()
endforeach()
