#pragma once
// `femc simulate`: the options as text, and the run at one scalar type
// (simulate_run.cpp; double, long double, float128 and mpfr_real).
#include <string>

namespace femc::cli {

struct SimulateArgs {
  std::string system;
  std::string precision = "double";
  std::string t_end, dt, tol;  // empty: the system's defaults
  std::string stepper = "dopri5";
  std::string stages;          // empty: radau-iia's default
  std::string baumgarte;       // "alpha,beta"
  std::string formulation;     // projected | index-3 | index-1 (dynamics/simulate.hpp); empty: the model's
  std::string step;                       // index-3's fixed step; empty: its default
  std::string contact_model = "qp";
  std::string contact_tol;
  std::string method;          // empty: cod
  std::string record_every;    // empty: every record
  std::string output;
};

struct SimulateOutput {
  std::string csv;      // header + one row per record
  std::string summary;  // JSON: settings, completion, stop reason, maxima, events, warnings
  bool completed = false;
  bool warned = false;  // a warning says femc cannot vouch for the run (simulation/monitors.hpp)
};

// Throws InputError naming the option for bad values.
template <class S>
SimulateOutput simulate_builtin(const SimulateArgs& args, const std::string& precision_name);

// `femc simulate` at args.precision (double, long-double, float128 or MPFR
// bits): the run the command makes, for it and for the Python module.
SimulateOutput simulate_system(const SimulateArgs& args);

}  // namespace femc::cli
