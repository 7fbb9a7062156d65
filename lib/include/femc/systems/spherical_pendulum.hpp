#pragma once
// 004 Example 1: a point mass m at the end of a weightless rod of length L
// pivoted at O; y points down, so gravity is +m g along y. q = (x, y, z).
//   M = m I,  Q = (0, m g, 0)ᵀ                          004 (24)
//   x² + y² + z² = L²                                    004 (25)
//   [x y z] q̈ = −(ẋ² + ẏ² + ż²)                         004 (26)
#include "femc/system.hpp"

namespace femc::systems {

template <class S>
struct SphericalPendulum {
  S m, g, L;

  System<S> at(const Vector<S>& q, const Vector<S>& qd) const {
    Matrix<S> M = m * Matrix<S>::Identity(3, 3);
    Matrix<S> A(1, 3);
    A << q(0), q(1), q(2);  // ½ d²/dt² of (25)
    Vector<S> b(1);
    b << -qd.squaredNorm();
    Vector<S> Q(3);
    Q << S(0), m * g, S(0);
    return make_system<S>(M, A, b, Q);
  }
};

}  // namespace femc::systems
