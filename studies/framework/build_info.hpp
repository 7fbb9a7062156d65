#pragma once
// What a record says about the build that produced it.
#include <string>

namespace femc::studies {

std::string build_commit();    // git commit of the source tree, "+dirty" when modified; "unknown" outside git
std::string build_compiler();  // compiler id and version
std::string build_type();      // CMake build type and the flags that matter

}  // namespace femc::studies
