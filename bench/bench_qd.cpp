// Solve times and allocations of every method in libqd's double-double and
// quad-double (femc_case.hpp), up to 200×80; compared in the report with
// MPFR at 106 and 212 bits (bench_mpfr.cpp).
#include "femc/scalar/qd.hpp"
#include "femc_case.hpp"

namespace femc::bench {
namespace {

Budget qd_budget(Method method, Shape s) {
  if (s.n >= 1000) return Budget::Skip;
  return method == Method::Literal && s.n >= 200 ? Budget::Once : Budget::Timed;
}

}  // namespace

void register_qd() {
  register_solves<double_double>("dd", 0, methods_of(Arithmetic::Floating), {kShapes[0], kShapes[1], kShapes[2]}, qd_budget, false);
  register_solves<quad_double>("qd", 0, methods_of(Arithmetic::Floating), {kShapes[0], kShapes[1], kShapes[2]}, qd_budget, false);
}

}  // namespace femc::bench
