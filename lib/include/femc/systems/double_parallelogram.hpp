#pragma once
// A planar double parallelogram: three equal cranks of length L pivoted on
// the ground at O_i = ((i−1)a, 0), i = 1, 2, 3, their tips pinned to one
// coupler bar of length 2a at the points −a, 0, +a from its centre. Grübler:
// 5 links (ground included) and 6 pins give 3·4 − 2·6 = 0 degrees of freedom,
// yet the linkage moves with one (the third crank is redundant): the
// constraint Jacobian has rank 5 of 6 at every configuration of the motion.
// It exercises a rank-deficient A along a whole trajectory.
//
// q = (θ₁, θ₂, θ₃, x, y, φ): crank angles from the ground line, the coupler's
// centre and angle. Pin i, with s_i = (i − 2)a:
//   φ_i = O_i + L(cosθ_i, sinθ_i) − (x, y) − s_i(cosφ, sinφ) = 0   (2 rows)
// Twice differentiated, φ̈_i = A_i q̈ − b_i with
//   x-row: A = [−L sinθ_i e_i, −1, 0, s_i sinφ],  b = L cosθ_i θ̇_i² − s_i cosφ φ̇²
//   y-row: A = [ L cosθ_i e_i, 0, −1, −s_i cosφ], b = L sinθ_i θ̇_i² − s_i sinφ φ̇²
// Uniform cranks of mass m_c (I = m_c L²/3 about the pivot), coupler of mass
// m_b (I = m_b (2a)²/12): M = diag(I_c, I_c, I_c, m_b, m_b, I_b), and
// gravity g along −y: V = Σ m_c g (L/2) sinθ_i + m_b g y.
// The motion from a parallelogram state: θ_i = θ, φ = 0, (x, y) = (a + L cosθ,
// L sinθ): a compound pendulum with kinetic energy ½ J θ̇², J = 3 I_c + m_b L².
#include <cmath>

#include "femc/system.hpp"

namespace femc::systems {

template <class S>
struct DoubleParallelogram {
  S L, a, m_c, m_b, g;

  S crank_inertia() const { return m_c * L * L / S(3); }
  S coupler_inertia() const { return m_b * S(4) * a * a / S(12); }
  S offset(Index i) const { return S(int(i) - 1) * a; }  // s_i, i = 0, 1, 2

  Matrix<S> mass(const Vector<S>&) const {
    Vector<S> d(6);
    d << crank_inertia(), crank_inertia(), crank_inertia(), m_b, m_b, coupler_inertia();
    return d.asDiagonal();
  }
  S potential(const Vector<S>& q) const {
    using std::sin;
    S V = m_b * g * q(4);
    for (Index i = 0; i < 3; ++i) V += m_c * g * L / S(2) * sin(q(i));
    return V;
  }
  System<S> at(const Vector<S>& q, const Vector<S>& qd) const {
    using std::cos;
    using std::sin;
    Vector<S> c(3), s(3);
    for (Index i = 0; i < 3; ++i) c(i) = cos(q(i)), s(i) = sin(q(i));
    return at_cos_sin(c, s, cos(q(5)), sin(q(5)), qd);
  }
  // The same from the cosines and sines of θ_i and φ: no trigonometry, so
  // that exact types can build the system at a rational point of the circle.
  System<S> at_cos_sin(const Vector<S>& cos_theta, const Vector<S>& sin_theta, const S& cphi, const S& sphi,
                       const Vector<S>& qd) const {
    const S w = qd(5) * qd(5);
    Matrix<S> A = Matrix<S>::Zero(6, 6);
    Vector<S> b(6), Q = Vector<S>::Zero(6);
    for (Index i = 0; i < 3; ++i) {
      const S c = cos_theta(i), s = sin_theta(i), wi = qd(i) * qd(i), si = offset(i);
      A(2 * i, i) = -L * s;
      A(2 * i, 3) = S(-1);
      A(2 * i, 5) = si * sphi;
      b(2 * i) = L * c * wi - si * cphi * w;
      A(2 * i + 1, i) = L * c;
      A(2 * i + 1, 4) = S(-1);
      A(2 * i + 1, 5) = -si * cphi;
      b(2 * i + 1) = L * s * wi - si * sphi * w;
      Q(i) = -m_c * g * L / S(2) * c;
    }
    Q(4) = -m_b * g;
    return make_system<S>(mass(Vector<S>()), A, b, Q);
  }
  // The linkage on its parallelogram motion at cos θ = c, sin θ = s, θ̇ = ω
  // (φ = 0), written in the coordinates q = H q′ with H = I − 2vvᵀ/(vᵀv),
  // v = (1, …, 6): H is symmetric and orthogonal, so M′ = HMH, A′ = AH,
  // Q′ = HQ, b′ = b describe the same mechanism and q̈ = H q̈′. With c, s
  // rational (a Pythagorean triple) and S exact, A′ has rank 5 of 6 exactly;
  // its entries (multiples of 1/91) are not binary fractions, so rounding
  // them makes the sixth row independent at the rounding level: a redundant
  // mechanism whose redundancy does not survive rounding (tests/
  // test_rounded_data.cpp, the rank study).
  static Matrix<S> mixing() {
    const Vector<S> v = Vector<S>::LinSpaced(6, S(1), S(6));
    return Matrix<S>::Identity(6, 6) - (S(2) / v.squaredNorm()) * v * v.transpose();
  }
  System<S> mixed_at(const S& c, const S& s, const S& omega) const {
    Vector<S> qd(6);
    qd << omega, omega, omega, -L * s * omega, L * c * omega, S(0);
    const System<S> plain = at_cos_sin(Vector<S>::Constant(3, c), Vector<S>::Constant(3, s), S(1), S(0), qd);
    const Matrix<S> H = mixing();
    return make_system<S>(H * plain.M * H, plain.A * H, plain.b, H * plain.Q);
  }
  // φ (6 rows, the pin equations above) and φ̇ = A q̇.
  Vector<S> constraint(const Vector<S>& q) const {
    using std::cos;
    using std::sin;
    Vector<S> phi(6);
    for (Index i = 0; i < 3; ++i) {
      phi(2 * i) = S(int(i)) * a + L * cos(q(i)) - q(3) - offset(i) * cos(q(5));
      phi(2 * i + 1) = L * sin(q(i)) - q(4) - offset(i) * sin(q(5));
    }
    return phi;
  }
  Vector<S> constraint_rate(const Vector<S>& q, const Vector<S>& qd) const {
    return at(q, Vector<S>::Zero(6)).A * qd;
  }
  // A consistent state of the parallelogram motion at crank angle θ, rate ω.
  void parallelogram_state(const S& theta, const S& omega, Vector<S>& q, Vector<S>& qd) const {
    using std::cos;
    using std::sin;
    q.resize(6);
    qd.resize(6);
    q << theta, theta, theta, a + L * cos(theta), L * sin(theta), S(0);
    qd << omega, omega, omega, -L * sin(theta) * omega, L * cos(theta) * omega, S(0);
  }
};

}  // namespace femc::systems
