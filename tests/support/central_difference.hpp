#pragma once
// Derivatives of an engine's own positions, velocities and energies by central
// differences, to check what an adapter extracted (tests/engines).
//
// The differences and their error estimate are richardson.hpp's
// (engines/common). A check passes when the extracted value is within twice
// the truncation estimate of r(h/2), plus the rounding of the differenced
// values at p = max(1, |f|∞ over the stencil) (values of order 1, such as
// positions in metres, are rounded absolutely).
#include <algorithm>
#include <functional>
#include <iostream>

#include "femc/engines/richardson.hpp"
#include "femc/system.hpp"

namespace femc::test {

using Path = std::function<Vector<double>(double t)>;  // f(t) along a motion

// The step for a motion q + t·v: h for unit speeds, shorter for fast ones
// (Bricard's pins turn at 11 rad/s), as the error terms grow with |v|∞.
inline double step(const Vector<double>& v, double h = 1e-3) {
  return h / std::max(1.0, v.lpNorm<Eigen::Infinity>());
}

// Whether `expected` is f^(order)(0) (order 1 or 2) within the estimate above;
// prints the comparison under `what`.
inline bool difference_agrees(const Path& f, int order, const Vector<double>& expected, const char* what,
                              double h = 1e-3) {
  const Vector<double> f0 = f(0);
  double scale = std::max(1.0, f0.lpNorm<Eigen::Infinity>());
  auto D = [&](double s) {
    const Vector<double> plus = f(s), minus = f(-s);
    scale = std::max({scale, plus.lpNorm<Eigen::Infinity>(), minus.lpNorm<Eigen::Infinity>()});
    return order == 1 ? Vector<double>((plus - minus) / (2 * s)) : Vector<double>((plus - 2 * f0 + minus) / (s * s));
  };
  const engines::richardson::Extrapolated r = engines::richardson::extrapolate(D, h);
  const double tol = 2 * r.truncation + engines::richardson::rounding(order, scale, h);
  const double err = (r.value - expected).lpNorm<Eigen::Infinity>();
  std::cout << "  " << what << ": |difference − extracted| " << err << ", tolerance " << tol << "\n";
  return err <= tol;
}

// x with its first entry off by 1e-6·max(1, ‖x‖∞): an error each check must see.
inline Vector<double> off_by_1e6(Vector<double> x) {
  x(0) += 1e-6 * std::max(1.0, x.lpNorm<Eigen::Infinity>());
  return x;
}

}  // namespace femc::test
