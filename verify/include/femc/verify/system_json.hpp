#pragma once
// A system as the `femc solve` input document (io/json_system.hpp reads it
// back exactly): numbers as the decimal or p/q strings of SystemText.
#include <string>

#include "femc/io/json_system.hpp"

namespace femc::verify {

// With `name` and `description` keys when they are not empty.
std::string system_json(const SystemText& system, const std::string& name = "", const std::string& description = "");

}  // namespace femc::verify
