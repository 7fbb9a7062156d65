// femc simulate at long double (one translation unit per scalar type).
#include "femc/scalar/builtin.hpp"
#include "simulate_run.hxx"

namespace femc::cli {
template SimulateOutput simulate_builtin<long double>(const SimulateArgs&, const std::string&);
}  // namespace femc::cli
