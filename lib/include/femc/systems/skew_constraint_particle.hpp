#pragma once
// 004 Example 3: a particle of mass m under given forces (X(t), Y(t), Z(t))
// with the non-holonomic, time-dependent constraint ẏ = z ẋ + α(t).
// Differentiating once: −z ẍ + ÿ = ż ẋ + α̇(t), so
//   A = [−z 1 0]  (004 (35)),  b = ż ẋ + α̇(t).
// (The printed (36)–(37) read b = z ẋ + α̇: a lost dot, see the errata in
// CLAIMS.md; d/dt(z ẋ) = ż ẋ + z ẍ, and the z ẍ term is the −z in A.)
#include <functional>

#include "femc/system.hpp"

namespace femc::systems {

template <class S>
struct SkewConstraintParticle {
  S m;
  std::function<Vector<S>(const S&)> force;  // (X(t), Y(t), Z(t))
  std::function<S(const S&)> alpha_dot;      // α̇(t)

  System<S> at(const Vector<S>& q, const Vector<S>& qd, const S& t) const {
    Matrix<S> A(1, 3);
    A << -q(2), S(1), S(0);
    Vector<S> b(1);
    b << qd(2) * qd(0) + alpha_dot(t);
    return make_system<S>(Matrix<S>(m * Matrix<S>::Identity(3, 3)), A, b, force(t));
  }
};

}  // namespace femc::systems
