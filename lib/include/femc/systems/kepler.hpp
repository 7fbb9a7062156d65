#pragma once
// 004 Example 2: a free particle of mass m (M = m I, Q = 0, 004 (29)) made to
// obey Kepler's first two laws by constraints:
//   r = ε x + p,  r = √(x² + y²)     the ellipse (focus at O)   004 (30)
//   x ẏ − y ẋ = c                    constant areal velocity    004 (31)
// Differentiating (30) twice and multiplying by r (derived here, as the
// printed (32) already uses (31) to write its right-hand side):
//   (x − rε) ẍ + y ÿ = −[(ẋ² + ẏ²) − (x ẋ + y ẏ)²/r²] = −(x ẏ − y ẋ)²/r²,
// which is −c²/r² on the orbit, as printed in (32). Differentiating (31)
// once: x ÿ − y ẍ = 0 (the printed row [y −x] with b = 0 is its negative).
// The general right-hand side is kept, so that the system is right at any
// state, on the orbit or not.
#include <cmath>

#include "femc/system.hpp"

namespace femc::systems {

template <class S>
struct Kepler {
  S m, eps, p;
  bool areal = true;  // include (31); without it, the ellipse alone

  System<S> at(const Vector<S>& q, const Vector<S>& qd) const {
    using std::sqrt;
    const S x = q(0), y = q(1), xd = qd(0), yd = qd(1);
    const S r = sqrt(x * x + y * y);
    const S radial = x * xd + y * yd;
    const Index mrows = areal ? 2 : 1;
    Matrix<S> A(mrows, 2);
    Vector<S> b(mrows);
    A(0, 0) = x - r * eps;
    A(0, 1) = y;
    b(0) = -(xd * xd + yd * yd - radial * radial / (r * r));
    if (areal) {
      A(1, 0) = -y;
      A(1, 1) = x;
      b(1) = S(0);
    }
    return make_system<S>(Matrix<S>(m * Matrix<S>::Identity(2, 2)), A, b, Vector<S>(Vector<S>::Zero(2)));
  }
};

}  // namespace femc::systems
