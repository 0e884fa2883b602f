# Makes the sample class (grader/tests/fixtures/class) in a folder: the fixtures' students, plus
# ada-correct (lessons 00 and 01, or LESSONS, copied from solutions/) and eve-extras' hello_gpu.cu
# (from solutions/), so that correct code is not kept twice. STUDENTS limits it to some students.
# Without STUDENTS it also holds a folder whose name cannot be a student's (quotes and
# spaces), which must be reported and leave the rest graded.
#   cmake -DSOURCE_DIR=<course> -DCLASS=<folder> [-DSTUDENTS=a|b|c] [-DLESSONS=00-hello-gpu|...]
#         -P make_class.cmake
cmake_minimum_required(VERSION 3.24)
set(fixtures "${SOURCE_DIR}/grader/tests/fixtures/class")
file(REMOVE_RECURSE "${CLASS}")
file(MAKE_DIRECTORY "${CLASS}")
file(GLOB students RELATIVE "${fixtures}" "${fixtures}/*")
list(APPEND students ada-correct)
string(REPLACE "|" ";" chosen "${STUDENTS}")
foreach(student IN LISTS students)
  if((chosen AND NOT student IN_LIST chosen) OR NOT (IS_DIRECTORY "${fixtures}/${student}" OR student STREQUAL "ada-correct"))
    continue()
  endif()
  if(student STREQUAL "ada-correct")
    set(lessons 00-hello-gpu 01-vector-add)
    if(LESSONS)
      string(REPLACE "|" ";" lessons "${LESSONS}")
    endif()
    foreach(lesson IN LISTS lessons)  # the graded files only: not the tuned versions beside them
      file(COPY "${SOURCE_DIR}/solutions/${lesson}" DESTINATION "${CLASS}/ada-correct/lessons"
           PATTERN "tuned" EXCLUDE)
    endforeach()
  else()
    file(COPY "${fixtures}/${student}" DESTINATION "${CLASS}" PATTERN ".gitkeep" EXCLUDE)
  endif()
  if(student STREQUAL "eve-extras")
    file(COPY "${SOURCE_DIR}/solutions/00-hello-gpu/hello_gpu.cu" DESTINATION "${CLASS}/eve-extras/lessons/00-hello-gpu")
  endif()
endforeach()
if(NOT STUDENTS)
  file(MAKE_DIRECTORY "${CLASS}/fay \"quoted\" name/lessons/00-hello-gpu")
endif()
