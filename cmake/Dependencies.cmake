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

# nlohmann-json and CLI11 (the grading runner reads result records and its command line with
# them): the system's (Debian: nlohmann-json3-dev, libcli11-dev), else downloaded. Offline, pass
# -DFETCHCONTENT_SOURCE_DIR_NLOHMANN_JSON=... / -DFETCHCONTENT_SOURCE_DIR_CLI11=..., or
# -DCMAKE_PREFIX_PATH=<a folder with their CMake package files>.
find_package(nlohmann_json 3.10 QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  message(STATUS "nlohmann-json not found on the system: downloading it")
  FetchContent_Declare(nlohmann_json
    URL https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz
    URL_HASH SHA256=d6c65aca6b1ed68e7a182f4757257b107ae403032760ed6ef121c9d55e81757d)
  FetchContent_MakeAvailable(nlohmann_json)
endif()
find_package(CLI11 2.1 QUIET)
if(NOT TARGET CLI11::CLI11)
  message(STATUS "CLI11 not found on the system: downloading it")
  FetchContent_Declare(cli11
    GIT_REPOSITORY https://github.com/CLIUtils/CLI11.git
    GIT_TAG v2.4.2
    GIT_SHALLOW TRUE)
  FetchContent_MakeAvailable(cli11)
endif()
