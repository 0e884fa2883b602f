# Warnings for host and device code, as one target every library and program links to.
add_library(stepwise_warnings INTERFACE)
add_library(stepwise::warnings ALIAS stepwise_warnings)
target_compile_options(stepwise_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>
  # (unused parameters are allowed: an exercise stub has them until the student writes it)
  # host code that nvcc hands to the host compiler; device code: report register spills and
  # local-memory use, which cost speed silently
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wno-unused-parameter -Xptxas=-warn-spills,-warn-lmem-usage>)

# Line numbers in device code (no effect on speed), so compute-sanitizer and ncu name file:line.
target_compile_options(stepwise_warnings INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
