#pragma once
// The forward-error bound for data rounded to double, shared by the
// rounded-data tests and the engine adapters' tests (an engine's data are
// rounded to double): femc::prop::rounded_data_bound_per_u
// (verify/exact_data.hpp) states it.
#include "support/convert.hpp"

namespace femc::test {

inline constexpr double kDoubleU = 0x1p-53;

using prop::inf_norm;
inline double bound_per_u(const System<rational>& sys, Index r, double qdd_inf) {
  return prop::rounded_data_bound_per_u(sys, r, qdd_inf);
}

}  // namespace femc::test
