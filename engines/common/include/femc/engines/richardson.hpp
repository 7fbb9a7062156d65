#pragma once
// A derivative by central differences and Richardson's extrapolation, with
// its error estimate: how the engine adapters form what an engine does not
// expose (J̇v of MuJoCo 2.2.2 and of Bullet's planar loops) and how the
// adapter tests check what an engine does expose (tests/support/
// central_difference.hpp).
//
// D(s) is a central difference of step s, with error c₂s² + c₄s⁴ + …;
// r(s) = (4 D(s/2) − D(s))/3 removes the s² term, so r(h/2) is within
// |r(h/2) − r(h)|/15 of the derivative (to O(h⁶)).
//
// Rounding. Where each differenced value is rounded to c·ε·p (p its scale),
// the stencil's weights make that c·ε·p/s in D(s) for a first derivative
// (1, 1 over 2s) and 4c·ε·p/s² for a second (1, 2, 1 over s²), and in
// r(h/2) = (4 D(h/4) − D(h/2))/3: (4·4 + 2)/3 = 6 c·ε·p/h, respectively
// (4·64 + 16)/3 = 272/3 c·ε·p/h². c = 16 for an engine's values: each is the
// end of a recursion over at most seven rigid transforms (a rotation product
// and a translation each, two roundings per entry), not one rounding; with
// c = 1 the J v, Q checks of the MuJoCo adapter failed by 1.1–1.3× on
// correct values.
#include "femc/system.hpp"

namespace femc::engines::richardson {

constexpr double kValueRounding = 16 * 0x1p-52;  // c·ε above, relative to a value's scale

struct Extrapolated {
  Vector<double> value;  // r(h/2)
  double truncation;     // |r(h/2) − r(h)|∞ / 15
};

// difference(s) is D(s), evaluated at h, h/2 and h/4.
template <class Difference>
Extrapolated extrapolate(const Difference& difference, double h) {
  const Vector<double> d1 = difference(h), d2 = difference(h / 2), d3 = difference(h / 4);
  const Vector<double> r1 = (4 * d2 - d1) / 3, r2 = (4 * d3 - d2) / 3;
  return {r2, (r2 - r1).template lpNorm<Eigen::Infinity>() / 15};
}

// r(h/2)'s rounding for values rounded to kValueRounding·scale, for a first
// (order 1) or second (order 2) derivative.
inline double rounding(int order, double scale, double h) {
  return order == 1 ? 6 * kValueRounding * scale / h : 272.0 / 3 * kValueRounding * scale / (h * h);
}

}  // namespace femc::engines::richardson
