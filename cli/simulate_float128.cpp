// femc simulate at femc::float128 (one translation unit per scalar type).
#include "femc/scalar/float128.hpp"
#include "simulate_run.hxx"

namespace femc::cli {
template SimulateOutput simulate_builtin<femc::float128>(const SimulateArgs&, const std::string&);
}  // namespace femc::cli
