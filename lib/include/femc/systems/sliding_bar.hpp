#pragma once
// Y3: 003 Example 4.1, a rigid bar of mass m and half-length l (I = m l²/3
// about its centre) whose end A slides on the ground y = 0 with Coulomb
// friction μ. q = (x, y, θ): centre and angle from the horizontal; A is the
// lower end, A = (x − l cosθ, y − l sinθ).
//   M = diag(m, m, m l²/3),  Q = (0, −m g, 0)                 003 (27), (32)
//   g_N = y_A = y − l sinθ ≥ 0                                003 (28)
//   W_N = [0, 1, −l cosθ],  W̄_N = l θ̇² sinθ                   003 (29), (32)
//   W_t = [1, 0, l sinθ]  (ẋ_A = ẋ + l sinθ θ̇),  W̄_t = l θ̇² cosθ
// With A sliding to the left (ẋ_A < 0, friction +μF_n) the contact problem
// of contact/unilateral_problem.hpp reduces to 003 (30)–(31):
//   ÿ_A = A(θ, μ) F_n + B,  A = [1 + 3 cosθ (cosθ − μ sinθ)]/m,  B = l θ̇² sinθ − g.
// A < 0 needs μ > 4/3 (Painlevé); tests/test_contact_systems.cpp checks both.
#include <cmath>

#include "femc/contact/unilateral_problem.hpp"
#include "femc/dynamics/model.hpp"

namespace femc::systems {

template <class S>
struct SlidingBar {
  S m, l, g, mu;

  Matrix<S> mass(const Vector<S>&) const {
    Matrix<S> M = Matrix<S>::Zero(3, 3);
    M(0, 0) = m;
    M(1, 1) = m;
    M(2, 2) = m * l * l / S(3);
    return M;
  }
  Vector<S> applied(const Vector<S>&, const Vector<S>&) const {
    Vector<S> Q = Vector<S>::Zero(3);
    Q(1) = -m * g;
    return Q;
  }
  S potential(const Vector<S>& q) const { return m * g * q(1); }
  Vector<S> gaps(const Vector<S>& q) const {
    using std::sin;
    Vector<S> gN(1);
    gN << q(1) - l * sin(q(2));
    return gN;
  }
  // The upper end B = (x + l cosθ, y + l sinθ) has no contact in the model.
  void check_state(const Vector<S>& q) const {
    using std::sin;
    if (q(1) + l * sin(q(2)) <= S(0)) throw dynamics::ModelStop("sliding bar: end B reached the ground");
  }
  contact::ContactData<S> contact_data(const Vector<S>& q, const Vector<S>& qd) const {
    using std::cos;
    using std::sin;
    const S c = cos(q(2)), s = sin(q(2)), w2 = qd(2) * qd(2);
    contact::ContactData<S> d;
    d.WN.resize(1, 3);
    d.WN << S(0), S(1), -l * c;
    d.WbarN.resize(1);
    d.WbarN << l * w2 * s;
    d.Wt.resize(1, 3);
    d.Wt << S(1), S(0), l * s;
    d.WbarT.resize(1);
    d.WbarT << l * w2 * c;
    d.mu = Vector<S>::Constant(1, mu);
    d.s.resize(1);
    d.s << contact::friction_sign<S>(d.Wt.row(0).dot(qd));
    return d;
  }
};

}  // namespace femc::systems
