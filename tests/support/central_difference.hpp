#pragma once
// Derivatives of an engine's own positions, velocities and energies by central
// differences, to check what an adapter extracted (tests/engines).
//
// D(s) is the central difference of step s, with error c₂s² + c₄s⁴ + …;
// r(s) = (4 D(s/2) − D(s))/3 removes the s² term (Richardson), so r(h/2) is
// within |r(h/2) − r(h)|/15 of the derivative (to O(h⁶)). A check passes when
// the extracted value is within twice that estimate of r(h/2), plus the
// rounding of the differenced values: c·ε·p per value, p = max(1, |f|∞ over
// the stencil) (values of order 1, such as positions in metres, are rounded
// absolutely). c = 16: each value is an engine's position or energy, the end
// of a chain of at most seven rigid transforms (a rotation product and a
// translation each, two roundings per entry, the energy a sum over the
// bodies), not one rounding; with c = 1 the J v, Q checks of the MuJoCo
// adapter failed by 1.1–1.3× on correct values. The stencil's weights make
// that c·ε·p/s in D(s) for a first derivative (1, 1 over 2s) and 4c·ε·p/s²
// for a second (1, 2, 1 over s²), and in r(h/2) = (4 D(h/4) − D(h/2))/3:
// (4·4 + 2)/3 = 6 c·ε·p/h, respectively (4·64 + 16)/3 = 272/3 c·ε·p/h².
#include <algorithm>
#include <functional>
#include <iostream>

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
  const Vector<double> d1 = D(h), d2 = D(h / 2), d3 = D(h / 4);
  const Vector<double> r1 = (4 * d2 - d1) / 3, r2 = (4 * d3 - d2) / 3;
  const double c_eps = 16 * 0x1p-52;
  const double rounding = order == 1 ? 6 * c_eps * scale / h : 272.0 / 3 * c_eps * scale / (h * h);
  const double tol = 2 * (r2 - r1).lpNorm<Eigen::Infinity>() / 15 + rounding;
  const double err = (r2 - expected).lpNorm<Eigen::Infinity>();
  std::cout << "  " << what << ": |difference − extracted| " << err << ", tolerance " << tol << "\n";
  return err <= tol;
}

// x with its first entry off by 1e-6·max(1, ‖x‖∞): an error each check must see.
inline Vector<double> off_by_1e6(Vector<double> x) {
  x(0) += 1e-6 * std::max(1.0, x.lpNorm<Eigen::Infinity>());
  return x;
}

}  // namespace femc::test
