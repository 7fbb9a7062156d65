#pragma once
// The forward-error bound for data rounded to double (tests/test_rounded_data.cpp
// states it): rounding the data is a backward error of u_d per entry, so
//   |q̂ − q*|∞ ≤ c·u_d·K·(data + |q*|∞),  c = 16(n + m)²,
//   data = 1 + ‖Q‖∞ + ‖C‖∞ + ‖b‖∞,  K = κ(M)·κ_r(P)
// for consistent constraints at rank r. Shared by the rounded-data tests and
// the engine adapters' tests (an engine's data are rounded to double).
#include <algorithm>
#include <cmath>

#include "support/convert.hpp"

namespace femc::test {

inline constexpr double kDoubleU = 0x1p-53;

inline double inf_norm(const Vector<rational>& x) {
  double m = 0;
  for (Index i = 0; i < x.size(); ++i) m = std::max(m, std::abs(to_double(x(i))));
  return m;
}

// c·κ(M)·κ_r(P)·(data + |q̈|∞): the bound per unit roundoff of the data.
inline double bound_per_u(const System<rational>& sys, Index r, double qdd_inf) {
  const Conditioning k = conditioning(sys, r);
  const double nm = double(sys.n() + sys.m());
  const double data = 1 + inf_norm(sys.Q) + inf_norm(sys.C) + inf_norm(sys.b);
  return 16 * nm * nm * k.kappa_M * k.kappa_P * (data + qdd_inf);
}

}  // namespace femc::test
