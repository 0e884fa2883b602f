# Third-party code comes from the system or is downloaded at configure time; none is vendored.
include(FetchContent)

find_package(CUDAToolkit 12.0 REQUIRED)

# GoogleTest: the system's (Debian: libgtest-dev), else downloaded. To build offline from a
# local copy, pass -DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=/path/to/googletest.
find_package(GTest 1.10 QUIET)
if(NOT TARGET GTest::gtest)
  message(STATUS "GoogleTest not found on the system: downloading it")
  FetchContent_Declare(googletest
    GIT_REPOSITORY https://github.com/google/googletest.git
    GIT_TAG v1.15.2
    GIT_SHALLOW TRUE)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  FetchContent_MakeAvailable(googletest)
endif()
include(GoogleTest)

# stb (stb_image.h, stb_image_write.h): the system's (Debian: libstb-dev), a folder named by
# -DSTB_INCLUDE_DIR=..., else downloaded. To build offline from a local copy, pass
# -DFETCHCONTENT_SOURCE_DIR_STB=/path/to/stb.
find_path(STB_INCLUDE_DIR stb_image_write.h
  PATH_SUFFIXES stb
  DOC "Folder holding stb_image.h and stb_image_write.h")
if(STB_INCLUDE_DIR AND NOT EXISTS "${STB_INCLUDE_DIR}/stb_image.h")
  message(FATAL_ERROR "STB_INCLUDE_DIR=${STB_INCLUDE_DIR} holds no stb_image.h: point it at the "
                      "folder with stb_image.h and stb_image_write.h, or leave it unset")
endif()
if(NOT STB_INCLUDE_DIR)
  message(STATUS "stb not found on the system: downloading it")
  FetchContent_Declare(stb
    GIT_REPOSITORY https://github.com/nothings/stb.git
    GIT_TAG 22fa9a467ad26e9f214a078bc827f0c2f7acc15a)
  FetchContent_MakeAvailable(stb)
  set(STB_INCLUDE_DIR "${stb_SOURCE_DIR}" CACHE PATH "Folder holding stb_image.h" FORCE)
endif()
add_library(stepwise_stb INTERFACE)
add_library(stepwise::stb ALIAS stepwise_stb)
target_include_directories(stepwise_stb SYSTEM INTERFACE "${STB_INCLUDE_DIR}")
