#pragma once
// femc::verify's names for the system writer, which the library keeps
// (femc/io/system_text.hpp).
#include "femc/io/system_text.hpp"

namespace femc::verify {

using femc::system_json;
using femc::to_system_text;

}  // namespace femc::verify
