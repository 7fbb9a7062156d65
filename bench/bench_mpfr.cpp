// Solve times and allocations in MPFR (femc_case.hpp): every method at 256
// bits (the precision of the floor target), and the factor-based methods at
// 106 and 212 bits to set against double-double and quad-double. Up to
// 200×80: at 1000×400 one cod solve would take one to two minutes
// (about 125 times the operations of 200×80).
#include "femc/scalar/mpfr.hpp"
#include "femc_case.hpp"

namespace femc::bench {
namespace {

Budget mpfr256_budget(Method method, Shape s) {
  if (s.n >= 1000) return Budget::Skip;
  return method == Method::Literal && s.n >= 200 ? Budget::Once : Budget::Timed;
}

Budget mpfr_low_budget(Method, Shape s) { return s.n >= 1000 ? Budget::Skip : Budget::Timed; }

}  // namespace

void register_mpfr() {
  const auto shapes = {kShapes[0], kShapes[1], kShapes[2]};
  for (long bits : {106L, 212L})  // in ascending bits, the order of the report's tables
    register_solves<mpfr_real, MpfrPrecision>("mpfr" + std::to_string(bits), bits,
                                              methods_of(Arithmetic::Floating, {Method::Literal}), shapes, mpfr_low_budget,
                                              false);
  register_solves<mpfr_real, MpfrPrecision>("mpfr256", 256,
                                            methods_of(Arithmetic::Floating), shapes,
                                            mpfr256_budget, true);
}

}  // namespace femc::bench
