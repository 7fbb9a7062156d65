// femc simulate at femc::mpfr_real (one translation unit per scalar type).
#include "femc/scalar/mpfr.hpp"
#include "simulate_run.hxx"

namespace femc::cli {
template SimulateOutput simulate_builtin<femc::mpfr_real>(const SimulateArgs&, const std::string&);
}  // namespace femc::cli
