#pragma once
// What the studies' verdicts share (study.hpp, failures): the solver's
// declared law and rank tolerance, read from the registry by name, and the
// thresholds, which are the claims' (femc/verify/error_law.hpp,
// rank_policy.hpp), so that a study and a claim hold a solver to one law.
#include <cmath>
#include <sstream>
#include <string>

#include "femc/solvers/registry.hpp"
#include "femc/verify/error_law.hpp"
#include "femc/verify/rank_policy.hpp"
#include "study.hpp"

namespace femc::studies {

// A rank decision is judged only where every σ is this far from the
// solver's τ (either side): there the rank it must decide is known.
inline constexpr double kClearOfTolerance = 1000;

inline const Capabilities& capabilities_of(const std::string& solver) { return solvers().get(solver).capabilities(); }

// The solver's relative rank tolerance in a row: the one it reported with
// the answer (column `rank_tol`, when the table has it and it is a number),
// else the one it declares, else femc's default max(m, n)·ε.
inline double rank_tol_of(const Capabilities& caps, double reported, Index m, Index n, double u) {
  if (reported > 0 && std::isfinite(reported)) return reported;
  return caps.rank_tol > 0 ? caps.rank_tol : verify::default_rank_tol(m, n, u);
}

// "name = 3.1e+04 > 32": a measure over its threshold, for a failure's why.
inline std::string over(const std::string& name, double value, double threshold) {
  std::ostringstream os;
  os.precision(2);
  os << name << " = " << value << " > " << threshold;
  return os.str();
}

}  // namespace femc::studies
