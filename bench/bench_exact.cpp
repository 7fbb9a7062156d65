// Solve times and allocations of the exact method in GMP rationals
// (femc_case.hpp): small shapes only, since entries grow with every
// elimination step.
#include "femc/scalar/rational.hpp"
#include "femc_case.hpp"

namespace femc::bench {
namespace {

Budget exact_budget(Method, Shape s) {
  if (s.n >= 200) return Budget::Skip;
  return s.n >= 50 ? Budget::Once : Budget::Timed;
}

}  // namespace

void register_exact() {
  register_solves<rational>("exact", 0, methods_of(Arithmetic::Exact), {kShapes[0], kShapes[1]}, exact_budget, false);
}

}  // namespace femc::bench
