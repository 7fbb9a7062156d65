#pragma once
// `femc verify` (verify_command.cpp).
#include <CLI/CLI.hpp>
#include <functional>

namespace femc::cli {

std::function<int()> add_verify_command(CLI::App& app);

}  // namespace femc::cli
