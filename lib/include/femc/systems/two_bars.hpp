#pragma once
// Y4: 003 Example 4.2, two bars AB and BC (mass m, length l each, uniform)
// hinged at B, touching the ground y = 0 at A and C with Coulomb friction μ.
//
// Derived from the geometry (several printed matrices of 003 are damaged):
// q = (x, y, θ₁, θ₂) with (x, y) the centre of AB, θ₁ the angle of AB from
// the horizontal, θ₂ the angle of BC from the downward vertical. Then
//   A = (x − ½l cosθ₁, y − ½l sinθ₁),  B = (x + ½l cosθ₁, y + ½l sinθ₁),
//   centre of BC = B + ½l (sinθ₂, −cosθ₂),  C = B + l (sinθ₂, −cosθ₂).
// T = ½m(ẋ² + ẏ²) + ½(ml²/12)θ̇₁² + ½m|v_BC|² + ½(ml²/12)θ̇₂² gives
//   M = [ 2m        0         −½ml sinθ₁     ½ml cosθ₂
//         0         2m         ½ml cosθ₁     ½ml sinθ₂
//        −½ml sinθ₁ ½ml cosθ₁   ml²/3       −¼ml² sin(θ₁−θ₂)
//         ½ml cosθ₂ ½ml sinθ₂ −¼ml² sin(θ₁−θ₂)  ml²/3 ]           (= 003's printed M)
//   V = m g (2y + ½l sinθ₁ − ½l cosθ₂).
// M depends on q, so Lagrange's equations M q̈ + h(q, q̇) = −∇V + contact
// forces carry the velocity-product terms h = Ṁq̇ − ½∇(q̇ᵀMq̇); from the
// acceleration of BC's centre, h = m J₂ᵀ κ with J₂ = ∂v_BC/∂q̇ and
// κ = ½l(−cosθ₁ θ̇₁² − sinθ₂ θ̇₂², −sinθ₁ θ̇₁² + cosθ₂ θ̇₂²), so the Q of
// 003 (40) (all forces but the contact ones) is
//   Q = −∇V − h = ( ½ml(cosθ₁ θ̇₁² + sinθ₂ θ̇₂²),
//                   −2mg + ½ml(sinθ₁ θ̇₁² − cosθ₂ θ̇₂²),
//                   −½mgl cosθ₁ − ¼ml² cos(θ₁−θ₂) θ̇₂²,
//                   −½mgl sinθ₂ + ¼ml² cos(θ₁−θ₂) θ̇₁² )   (printed Q is damaged)
//   g_NA = y − ½l sinθ₁,  g_NC = y + ½l sinθ₁ − l cosθ₂        003 (37) as printed
//   W_N = [0 1 −½l cosθ₁ 0; 0 1 ½l cosθ₁ l sinθ₂]               (printed W_N damaged)
//   W̄_N = (½l sinθ₁ θ̇₁², −½l sinθ₁ θ̇₁² + l cosθ₂ θ̇₂²)          (printed: ½l cosθ₂ θ̇₂²)
//   W_t = [1 0 ½l sinθ₁ 0; 1 0 −½l sinθ₁ l cosθ₂]               (= printed W_t)
//   W̄_t = (½l cosθ₁ θ̇₁², −½l cosθ₁ θ̇₁² − l sinθ₂ θ̇₂²)
// and friction S = diag(−sgn ẋ_A, −sgn ẋ_C) (printed without the minus; see
// contact/unilateral_problem.hpp). tests/test_contact_systems.cpp checks M,
// W_N, W̄_N, W_t, W̄_t against derivatives of the geometry at 256 bits.
#include <cmath>

#include "femc/contact/unilateral_problem.hpp"
#include "femc/dynamics/model.hpp"

namespace femc::systems {

template <class S>
struct TwoBars {
  S m, l, g, mu;

  Matrix<S> mass(const Vector<S>& q) const {
    using std::cos;
    using std::sin;
    const S s1 = sin(q(2)), c1 = cos(q(2)), s2 = sin(q(3)), c2 = cos(q(3));
    const S h = m * l / S(2), I = m * l * l / S(3), k = -m * l * l / S(4) * sin(q(2) - q(3));
    Matrix<S> M(4, 4);
    M << S(2) * m, S(0), -h * s1, h * c2,  //
        S(0), S(2) * m, h * c1, h * s2,    //
        -h * s1, h * c1, I, k,             //
        h * c2, h * s2, k, I;
    return M;
  }
  Vector<S> applied(const Vector<S>& q, const Vector<S>& qd) const {
    using std::cos;
    using std::sin;
    const S s1 = sin(q(2)), c1 = cos(q(2)), s2 = sin(q(3)), c2 = cos(q(3)), c12 = cos(q(2) - q(3));
    const S w1 = qd(2) * qd(2), w2 = qd(3) * qd(3), h = l / S(2);
    Vector<S> Q(4);
    Q << m * h * (c1 * w1 + s2 * w2),                 //
        S(-2) * m * g + m * h * (s1 * w1 - c2 * w2),  //
        -m * g * h * c1 - m * h * h * c12 * w2,       //
        -m * g * h * s2 + m * h * h * c12 * w1;
    return Q;
  }
  S potential(const Vector<S>& q) const {
    using std::cos;
    using std::sin;
    return m * g * (S(2) * q(1) + l / S(2) * sin(q(2)) - l / S(2) * cos(q(3)));
  }
  Vector<S> gaps(const Vector<S>& q) const {
    using std::cos;
    using std::sin;
    Vector<S> gN(2);
    gN << q(1) - l / S(2) * sin(q(2)), q(1) + l / S(2) * sin(q(2)) - l * cos(q(3));
    return gN;
  }
  // The hinge B has no contact in the model: stop before it reaches the ground.
  void check_state(const Vector<S>& q) const {
    using std::sin;
    if (q(1) + l / S(2) * sin(q(2)) <= S(0)) throw dynamics::ModelStop("two bars: hinge B reached the ground");
  }
  contact::ContactData<S> contact_data(const Vector<S>& q, const Vector<S>& qd) const {
    using std::cos;
    using std::sin;
    const S s1 = sin(q(2)), c1 = cos(q(2)), s2 = sin(q(3)), c2 = cos(q(3));
    const S w1 = qd(2) * qd(2), w2 = qd(3) * qd(3), h = l / S(2);
    contact::ContactData<S> d;
    d.WN.resize(2, 4);
    d.WN << S(0), S(1), -h * c1, S(0),  //
        S(0), S(1), h * c1, l * s2;
    d.WbarN.resize(2);
    d.WbarN << h * s1 * w1, -h * s1 * w1 + l * c2 * w2;
    d.Wt.resize(2, 4);
    d.Wt << S(1), S(0), h * s1, S(0),  //
        S(1), S(0), -h * s1, l * c2;
    d.WbarT.resize(2);
    d.WbarT << h * c1 * w1, -h * c1 * w1 - l * s2 * w2;
    d.mu = Vector<S>::Constant(2, mu);
    d.s.resize(2);
    for (Index i = 0; i < 2; ++i) d.s(i) = contact::friction_sign<S>(d.Wt.row(i).dot(qd));
    return d;
  }
};

}  // namespace femc::systems
