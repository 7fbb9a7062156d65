#pragma once
// A particle of mass m on the sphere |q| = R about O, under gravity (−g
// along the last coordinate), with Coulomb sliding friction: the force the
// constraint does work with is
//   C = −μ ‖Qᴺ‖ q̇/‖q̇‖,   Qᴺ = M^{1/2}B⁺(b − A a)  the ideal normal force,
// 000 end of Section 4 (direction corrected to −q̇/(q̇ᵀq̇)^{1/2}, see the
// errata) and 002 Section 4, Example (35)–(40). Dimension 2 is the bead on a
// vertical circle of 002 (with m = 1, R = 1), dimension 3 the particle of 000.
//   M = m I,  Q = (0, …, −m g),  A = qᵀ,  b = −‖q̇‖²  (½ d²/dt² of |q|² = R²)
// Qᴺ does not depend on C, so it is computed first, from the ideal system.
#include <cmath>

#include "femc/scalar/traits.hpp"
#include "femc/solve.hpp"
#include "femc/system.hpp"

namespace femc::systems {

template <class S>
struct ParticleWithCoulombFriction {
  Index dim = 2;
  S m, g, mu;

  System<S> ideal_at(const Vector<S>& q, const Vector<S>& qd) const {
    Matrix<S> A(1, dim);
    A.row(0) = q.transpose();
    Vector<S> b(1);
    b << -qd.squaredNorm();
    Vector<S> Q = Vector<S>::Zero(dim);
    Q(dim - 1) = -m * g;
    return make_system<S>(Matrix<S>(m * Matrix<S>::Identity(dim, dim)), A, b, Q);
  }

  // The system with C set from the normal force of the ideal one (q̇ ≠ 0).
  System<S> at(const Vector<S>& q, const Vector<S>& qd) const {
    System<S> sys = ideal_at(q, qd);
    const Solution<S> ideal = solve(sys);
    using std::sqrt;
    sys.C = -mu * sqrt(ideal.QN.squaredNorm()) * qd / sqrt(qd.squaredNorm());
    return sys;
  }
};

}  // namespace femc::systems
