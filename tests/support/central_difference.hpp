#pragma once
// Derivatives of an engine's own positions, velocities and energies by central
// differences, to check what an adapter extracted (tests/engines). The error
// of a difference D(h) is estimated by Richardson, |D(h/2) − D(h)|·4/3, and a
// check passes when the extracted value is within twice that estimate of
// D(h/2), plus the rounding of the differenced values: ε·s per value, s =
// max(1, |f|∞ over the stencil) (values of order 1, such as positions in
// metres, are rounded absolutely), summed over the stencil's weights and
// divided by h/2 (first derivative: weights 1, 1) or (h/2)² (second: 1, 2, 1).
#include <algorithm>
#include <functional>
#include <iostream>

#include "femc/system.hpp"

namespace femc::test {

using Path = std::function<Vector<double>(double t)>;  // f(t) along a motion

// Whether `expected` is f^(order)(0) (order 1 or 2) within the estimate above;
// prints the comparison under `what`.
inline bool difference_agrees(const Path& f, int order, const Vector<double>& expected, const char* what,
                              double h = 1e-4) {
  const Vector<double> f0 = f(0);
  double scale = std::max(1.0, f0.lpNorm<Eigen::Infinity>());
  auto D = [&](double s) {
    const Vector<double> plus = f(s), minus = f(-s);
    scale = std::max({scale, plus.lpNorm<Eigen::Infinity>(), minus.lpNorm<Eigen::Infinity>()});
    return order == 1 ? Vector<double>((plus - minus) / (2 * s)) : Vector<double>((plus - 2 * f0 + minus) / (s * s));
  };
  const Vector<double> d1 = D(h), d2 = D(h / 2);
  const double eps = 0x1p-52;
  const double rounding = order == 1 ? 2 * eps * scale / h : 4 * eps * scale / (h * h / 4);
  const double tol = 2 * (d2 - d1).lpNorm<Eigen::Infinity>() * 4 / 3 + rounding;
  const double err = (d2 - expected).lpNorm<Eigen::Infinity>();
  std::cout << "  " << what << ": |difference − extracted| " << err << ", tolerance " << tol << "\n";
  return err <= tol;
}

// x with its first entry off by 1e-6·max(1, ‖x‖∞): an error each check must see.
inline Vector<double> off_by_1e6(Vector<double> x) {
  x(0) += 1e-6 * std::max(1.0, x.lpNorm<Eigen::Infinity>());
  return x;
}

}  // namespace femc::test
