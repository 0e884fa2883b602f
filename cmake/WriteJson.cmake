# stepwise_write_json(<file> <fact>...): the course build's runner (STEPWISE_RUNNER) writes <file>
# from the facts now, at configure time: `stepwise write-json` (grader/runner/src/write_json.h says
# what a fact is: /member=text, /array/-=text, /array[], /object{}). CMake writes no JSON itself, so
# a name a student chose is never pasted between quotes; an identical file is left untouched.
function(stepwise_write_json file)
  execute_process(COMMAND "${STEPWISE_RUNNER}" write-json "${file}" ${ARGN} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${STEPWISE_RUNNER} could not write ${file} (exit status ${status})")
  endif()
endfunction()
