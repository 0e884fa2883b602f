# Which GPU architectures to compile for. Included before project(), so it only sets a default:
#   - a user's -DCMAKE_CUDA_ARCHITECTURES=... (or the CUDAARCHS environment variable) always wins;
#   - with a GPU in this machine: machine code for exactly its GPUs, one entry per compute
#     capability ("9.0" gives 90-real): what "native" resolves to, read from nvidia-smi rather
#     than left to nvcc, whose answer to "native" costs CMake's first nvcc run a start of CUDA on
#     the GPU (seconds of every fresh configuration where the GPU has no persistence mode);
#   - with none: compute capability 7.5 with PTX ("75"), the oldest CUDA 13 supports. Newer GPUs
#     run it by compiling the PTX when a program starts (stepwise-doctor tells you which happens).
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  execute_process(
    COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
    RESULT_VARIABLE _stepwise_smi_result
    OUTPUT_VARIABLE _stepwise_smi_output
    ERROR_QUIET)
  if(_stepwise_smi_result EQUAL 0 AND _stepwise_smi_output MATCHES "[0-9]+\\.[0-9]+")
    string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _stepwise_default_archs "${_stepwise_smi_output}")
    list(TRANSFORM _stepwise_default_archs REPLACE "^([0-9]+)\\.([0-9]+)$" "\\1\\2-real")
    list(REMOVE_DUPLICATES _stepwise_default_archs)
  else()
    set(_stepwise_default_archs 75)
  endif()
  set(CMAKE_CUDA_ARCHITECTURES ${_stepwise_default_archs} CACHE STRING
      "CUDA architectures to build for (e.g. 90, 86, native); chosen by cmake/CudaArchitectures.cmake")
  message(STATUS "Stepwise CUDA: CMAKE_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES} (override with -DCMAKE_CUDA_ARCHITECTURES=...)")
endif()

# After project(): the architectures as doctor and error messages should name them.
macro(stepwise_resolve_built_architectures)
  if(CMAKE_CUDA_ARCHITECTURES STREQUAL "native" AND CMAKE_CUDA_ARCHITECTURES_NATIVE)
    set(STEPWISE_BUILT_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
  else()
    set(STEPWISE_BUILT_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
  endif()
endmacro()
