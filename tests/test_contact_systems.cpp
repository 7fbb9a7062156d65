// The models of 003's examples and of the double parallelogram against their
// geometry, at 256-bit MPFR: every matrix the code derived by hand (M, the
// velocity-product terms, W_N, W̄_N, W_t, W̄_t, A and b) is compared with
// derivatives of the positions written here independently, by central
// differences. Step s = 10⁻²⁰: truncation O(s²) ≈ 10⁻⁴⁰, rounding
// O(u/s) ≈ 10⁻⁵⁷ (first) or O(u/s²) ≈ 10⁻³⁷ (second differences); every
// check is at 10⁻³⁰ on O(1) data, far from both, and a wrong term is O(1).
// At double, the same formulas evaluated in double agree with the 256-bit
// ones to 64·u (relative), so the double build runs the same model.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "femc/contact/gauss_qp.hpp"
#include "femc/contact/lcp.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solve.hpp"
#include "femc/systems/double_parallelogram.hpp"
#include "femc/systems/sliding_bar.hpp"
#include "femc/systems/two_bars.hpp"
#include "support/double_agreement.hpp"
#include "support/convert.hpp"

namespace femc {
namespace {

using R = mpfr_real;
using VecFn = std::function<Vector<R>(const Vector<R>&)>;

class Models : public ::testing::Test {
 protected:
  MpfrPrecision bits{256};
  R s = ScalarTraits<R>::parse("1e-20");
  R tol = ScalarTraits<R>::parse("1e-30");

  // d/dt f(q + q̇t + ½q̈t²) and d²/dt² at t = 0.
  Vector<R> rate(const VecFn& f, const Vector<R>& q, const Vector<R>& qd, const Vector<R>& qdd) const {
    return (f(q + s * qd + s * s / R(2) * qdd) - f(q - s * qd + s * s / R(2) * qdd)) / (R(2) * s);
  }
  Vector<R> accel(const VecFn& f, const Vector<R>& q, const Vector<R>& qd, const Vector<R>& qdd) const {
    return (f(q + s * qd + s * s / R(2) * qdd) - R(2) * f(q) + f(q - s * qd + s * s / R(2) * qdd)) / (s * s);
  }
  // Jacobian ∂f/∂q.
  Matrix<R> jacobian(const VecFn& f, const Vector<R>& q) const {
    const Index n = q.size();
    Matrix<R> J(f(q).size(), n);
    for (Index j = 0; j < n; ++j) {
      Vector<R> e = Vector<R>::Zero(n);
      e(j) = s;
      J.col(j) = (f(q + e) - f(q - e)) / (R(2) * s);
    }
    return J;
  }
  void expect_small(const Matrix<R>& X, const char* what) const {
    EXPECT_LE(test::as_double(R(X.cwiseAbs().maxCoeff())), test::as_double(tol)) << what;
  }
  static Vector<R> vec(std::initializer_list<const char*> xs) {
    Vector<R> v(Index(xs.size()));
    Index i = 0;
    for (const char* x : xs) v(i++) = ScalarTraits<R>::parse(x);
    return v;
  }
};

// Y4 (003 Example 4.2): the two-bar model of systems/two_bars.hpp.
TEST_F(Models, Y4_TwoBarsAgainstGeometry) {
  using std::cos;
  using std::sin;
  const systems::TwoBars<R> tb{R(2), R(2), R(98) / R(10), R(1) / R(5)};
  const R m = tb.m, l = tb.l, I = m * l * l / R(12);
  // Points of the geometry: A, C, centres of AB and BC, as (x, y) pairs.
  auto points = [&](const Vector<R>& q) {
    const R x = q(0), y = q(1), t1 = q(2), t2 = q(3);
    const R Bx = x + l / R(2) * cos(t1), By = y + l / R(2) * sin(t1);
    Vector<R> p(8);
    p << x - l / R(2) * cos(t1), y - l / R(2) * sin(t1),  // A
        Bx + l * sin(t2), By - l * cos(t2),               // C
        x, y,                                             // centre of AB
        Bx + l / R(2) * sin(t2), By - l / R(2) * cos(t2); // centre of BC
    return p;
  };
  const Vector<R> q = vec({"0.3", "0.9", "0.7", "0.4"}), qd = vec({"-1", "0.5", "-0.3", "0.8"}),
                  qdd = vec({"0.2", "-0.7", "1.1", "-0.4"});
  // Kinetic energy from the centres' velocities: T = ½m|v₁|² + ½Iω₁² + ½m|v₂|² + ½Iω₂².
  auto kinetic = [&](const Vector<R>& qq, const Vector<R>& vv) {
    const Vector<R> v = rate([&](const Vector<R>& z) { return points(z); }, qq, vv, Vector<R>::Zero(4));
    return m / R(2) * (v(4) * v(4) + v(5) * v(5) + v(6) * v(6) + v(7) * v(7)) +
           I / R(2) * (vv(2) * vv(2) + vv(3) * vv(3));
  };
  // M: ½vᵀMv = T(q, v) for v = e_i and e_i + e_j (polarization gives every entry).
  const Matrix<R> M = tb.mass(q);
  for (Index i = 0; i < 4; ++i)
    for (Index j = i; j < 4; ++j) {
      Vector<R> v = Vector<R>::Zero(4);
      v(i) += R(1);
      v(j) += R(1);
      expect_small(Matrix<R>::Constant(1, 1, v.dot(M * v) / R(2) - kinetic(q, v)), "M");
    }
  // Lagrange: M q̈ − Q(q, q̇) = d/dt(M q̇) − ∂T/∂q + ∇V  with T = ½q̇ᵀM(q)q̇.
  const Vector<R> p_dot = rate([&](const Vector<R>& z) { return Vector<R>(tb.mass(z) * (qd + (z - q) * R(0))); },
                               q, qd, qdd);
  // d/dt (M(q(t)) q̇(t)) = Ṁ q̇ + M q̈; the line above differentiates M only.
  const Vector<R> lhs = M * qdd - tb.applied(q, qd);
  const Matrix<R> dT = jacobian([&](const Vector<R>& z) { return Vector<R>::Constant(1, qd.dot(tb.mass(z) * qd) / R(2)); }, q);
  const Matrix<R> dV = jacobian([&](const Vector<R>& z) { return Vector<R>::Constant(1, tb.potential(z)); }, q);
  expect_small(Vector<R>(lhs - (p_dot + M * qdd - dT.transpose() + dV.transpose())), "velocity-product terms and gravity");
  // V = Σ m g y_centre.
  const Vector<R> pts = points(q);
  expect_small(Matrix<R>::Constant(1, 1, tb.potential(q) - m * tb.g * (pts(5) + pts(7))), "V");
  // Contacts: g_N = (y_A, y_C); W_N = ∂g/∂q; W̄_N = g̈ − W_N q̈; W_t q̇ = (ẋ_A, ẋ_C); W̄_t = ẍ_t − W_t q̈.
  auto gaps = [&](const Vector<R>& z) { return Vector<R>((Vector<R>(2) << points(z)(1), points(z)(3)).finished()); };
  auto xs = [&](const Vector<R>& z) { return Vector<R>((Vector<R>(2) << points(z)(0), points(z)(2)).finished()); };
  const auto d = tb.contact_data(q, qd);
  expect_small(Vector<R>(tb.gaps(q) - gaps(q)), "g_N");
  expect_small(Matrix<R>(d.WN - jacobian(gaps, q)), "W_N");
  expect_small(Vector<R>(d.WbarN - (accel(gaps, q, qd, qdd) - d.WN * qdd)), "W̄_N");
  expect_small(Matrix<R>(d.Wt - jacobian(xs, q)), "W_t");
  expect_small(Vector<R>(d.WbarT - (accel(xs, q, qd, qdd) - d.Wt * qdd)), "W̄_t");
}

// Y3 (003 Example 4.1): the sliding bar.
TEST_F(Models, Y3_SlidingBarAgainstGeometry) {
  using std::cos;
  using std::sin;
  const systems::SlidingBar<R> bar{R(3) / R(2), R(7) / R(10), R(981) / R(100), R(1) / R(2)};
  auto endA = [&](const Vector<R>& q) {
    return Vector<R>((Vector<R>(2) << q(0) - bar.l * cos(q(2)), q(1) - bar.l * sin(q(2))).finished());
  };
  auto gy = [&](const Vector<R>& q) { return Vector<R>::Constant(1, endA(q)(1)); };
  auto gx = [&](const Vector<R>& q) { return Vector<R>::Constant(1, endA(q)(0)); };
  const Vector<R> q = vec({"0.1", "0.5", "0.8"}), qd = vec({"-1", "0.3", "0.6"}), qdd = vec({"0.4", "-2", "1.5"});
  const auto d = bar.contact_data(q, qd);
  expect_small(Vector<R>(bar.gaps(q) - gy(q)), "g_N");
  expect_small(Matrix<R>(d.WN - jacobian(gy, q)), "W_N");
  expect_small(Vector<R>(d.WbarN - (accel(gy, q, qd, qdd) - d.WN * qdd)), "W̄_N");
  expect_small(Matrix<R>(d.Wt - jacobian(gx, q)), "W_t");
  expect_small(Vector<R>(d.WbarT - (accel(gx, q, qd, qdd) - d.Wt * qdd)), "W̄_t");
}

// The double parallelogram: φ from the pins' positions, φ̈ = A q̈ − b, and
// along the parallelogram motion φ = 0, A q̇ = 0, rank A = 5 of 6 (Grübler 0,
// mobility 1), and the solved motion is the compound pendulum
// J θ̈ = −(3 m_c g L/2 + m_b g L) cosθ, J = 3 m_c L²/3 + m_b L².
TEST_F(Models, DoubleParallelogramRedundantButMobile) {
  using std::cos;
  using std::sin;
  const systems::DoubleParallelogram<R> dp{R(1), R(3) / R(2), R(1), R(2), R(981) / R(100)};
  auto phi = [&](const Vector<R>& q) { return dp.constraint(q); };
  const Vector<R> q = vec({"-0.7", "-0.8", "-0.75", "1.9", "-0.6", "0.05"});
  const Vector<R> qd = vec({"0.3", "-0.2", "0.1", "0.4", "0.5", "-0.3"});
  const Vector<R> qdd = vec({"1", "-0.5", "0.2", "0.3", "-1.2", "0.7"});
  const System<R> sys = dp.at(q, qd);
  expect_small(Vector<R>(accel(phi, q, qd, qdd) - (sys.A * qdd - sys.b)), "φ̈ = A q̈ − b");
  expect_small(Matrix<R>(sys.A - jacobian(phi, q)), "A = ∂φ/∂q");
  for (const char* th_text : {"-0.5", "-1.2", "-2.4"}) {
    const R th = ScalarTraits<R>::parse(th_text), w = R(3) / R(4);
    Vector<R> q0, qd0;
    dp.parallelogram_state(th, w, q0, qd0);
    const System<R> s0 = dp.at(q0, qd0);
    expect_small(dp.constraint(q0), "φ = 0 on the motion");
    expect_small(Vector<R>(s0.A * qd0), "A q̇ = 0 on the motion");
    const Solution<R> sol = solve(s0);
    EXPECT_EQ(sol.diagnostics.rank.rank, 5) << "θ = " << th_text;
    const R J = R(3) * dp.crank_inertia() + dp.m_b * dp.L * dp.L;
    const R thdd = -(R(3) * dp.m_c * dp.g * dp.L / R(2) + dp.m_b * dp.g * dp.L) * cos(th) / J;
    for (Index i = 0; i < 3; ++i)
      EXPECT_LE(test::as_double(R(abs(R(sol.qdd(i) - thdd)))), 1e-60) << "θ̈_" << i << " at θ = " << th_text;
  }
}

// Y4 beyond 003's data (../shared/CLAIMS.md, the note on Y4). A = W_N M⁻¹
// (W_Nᵀ + W_tᵀSU) is symmetric only at θ₁ = θ₂ = π/4; at μ = 0.9 with both
// feet on the ground (sin θ₁ = cos θ₂ = 12/13, exact at 256 bits through the
// Pythagorean triple) and sliding (ẋ = 1), the LCP lifts one foot while
// the QP holds it down with a negative (pulling) force. Tolerance: lcp.hpp's
// c·u·(|A||λ| + |B|), c = 4(k + 1) = 12.
TEST_F(Models, Y4_QpAndLcpDisagreeAtLargeFriction) {
  const systems::TwoBars<R> tb{R(2), R(2), R(98) / R(10), R(9) / R(10)};
  const R th1 = asin(R(12) / R(13)), th2 = acos(R(12) / R(13));
  Vector<R> q(4), qd(4);
  q << R(0), R(1) * sin(th1), th1, th2;  // y = ½l sin θ₁: foot A on the ground
  qd << R(1), R(0), R(0), R(0);
  ASSERT_LE(abs(tb.gaps(q)(0)) + abs(tb.gaps(q)(1)), R("1e-70")) << "both feet touch";
  const auto data = tb.contact_data(q, qd);
  ASSERT_EQ(data.s(0), R(-1));
  ASSERT_EQ(data.s(1), R(-1));  // both slide (to the right)
  const auto p = contact::make_unilateral_problem(tb.mass(q), tb.applied(q, qd), data);
  EXPECT_GT(abs(R(p.A(0, 1) - p.A(1, 0))), R("1e-3")) << "A is not symmetric here";
  const auto lcp = contact::enumerate_lcp(p.A, p.B);
  const auto qp = contact::solve_gauss_qp(p.A, p.B);
  ASSERT_EQ(lcp.status, contact::LcpStatus::Unique);
  ASSERT_EQ(qp.status, contact::QpStatus::Unique);
  const Vector<R>& l = lcp.solutions.front();
  const R tol = R(12) * unit_roundoff<R>() * (p.A.cwiseAbs() * l.cwiseAbs() + p.B.cwiseAbs()).maxCoeff();
  std::cout << "Y4 at mu = 0.9: LCP lambda = (" << test::as_double(l(0)) << ", " << test::as_double(l(1))
            << "), QP lambda = (" << test::as_double(qp.lambda(0)) << ", " << test::as_double(qp.lambda(1)) << ")\n";
  const int lifted = l(0) == R(0) ? 0 : 1;
  EXPECT_EQ(l(lifted), R(0)) << "the LCP lifts one foot";
  EXPECT_GT(l(1 - lifted), tol) << "and presses on the other";
  EXPECT_LT(qp.lambda(lifted), -tol) << "the QP pulls that foot down";
}

// The double build evaluates the same formulas (no literal silently in double).
TEST_F(Models, DoubleEvaluatesTheSameModels) {
  const Vector<R> q = vec({"0.3", "0.9", "0.7", "0.4"}), qd = vec({"-1", "0.5", "-0.3", "0.8"});
  Vector<double> qd_d(4), q_d(4);
  for (Index i = 0; i < 4; ++i) {
    q_d(i) = test::as_double(q(i));
    qd_d(i) = test::as_double(qd(i));
  }
  Vector<R> q_r(4), qd_r(4);
  for (Index i = 0; i < 4; ++i) {
    q_r(i) = R(q_d(i));
    qd_r(i) = R(qd_d(i));
  }
  const systems::TwoBars<R> tr{R(2), R(2), R(98) / R(10), R(1) / R(5)};
  const systems::TwoBars<double> td{2, 2, 9.8, 0.2};
  test::DoubleAgreement<R> agree("two bars (Y4), double against 256 bits");  // support/double_agreement.hpp
  agree.check(td.mass(q_d), tr.mass(q_r), "M");
  agree.check(td.applied(q_d, qd_d), tr.applied(q_r, qd_r), "Q");
  agree.check(td.contact_data(q_d, qd_d).WN, tr.contact_data(q_r, qd_r).WN, "W_N");
  agree.check(td.contact_data(q_d, qd_d).WbarN, tr.contact_data(q_r, qd_r).WbarN, "W̄_N");
}

}  // namespace
}  // namespace femc
