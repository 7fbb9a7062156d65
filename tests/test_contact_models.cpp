// The hand-derived contact models of 003's examples rebuilt from model files
// (label mechanisms, 256-bit MPFR): models/examples/sliding_bar.json (Y3)
// and two_bars.json (Y4) through the planar model layer against
// systems/sliding_bar.hpp and systems/two_bars.hpp.
//
// Y3 has the same coordinates in both, (x, y, θ) of the bar, so M, Q, g_N,
// W_N, W̄_N, W_t, W̄_t must coincide entry by entry. Y4's hand model has four
// coordinates q_h = (x, y, θ₁, θ₂) with the hinge built in, the model six
// (x, y, θ of each bar) and the hinge as two constraint rows. The map
//   q_m = ψ(q_h) = (x, y, θ₁, x + ½l cosθ₁ + ½l sinθ₂, y + ½l sinθ₁ − ½l cosθ₂, θ₂ − π/2)
// with J = ∂ψ/∂q_h and J̇q̇_h (q̇_m = J q̇_h, q̈_m = J q̈_h + J̇q̇_h) gives
//   M_h = Jᵀ M_m J,   Q_h = Jᵀ (Q_m − M_m J̇q̇_h)    (Lagrange's equations in q_h)
//   W_h = W_m J,      W̄_h = W̄_m + W_m J̇q̇_h       (for W_N and W_t)
// and the contact problem g̈_N = Aλ + B is physical, so the model's, built
// with the hinge (contact/unilateral_problem_with_joints.hpp), equals the
// hand model's. Dropping the hinge from the model's problem must fail that.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <cmath>
#include <iostream>

#include "femc/contact/gauss_qp.hpp"
#include "femc/contact/lcp.hpp"
#include "femc/contact/unilateral_problem_with_joints.hpp"
#include "femc/io/model_file.hpp"
#include "femc/models/planar.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/solve.hpp"
#include "femc/systems/sliding_bar.hpp"
#include "femc/systems/two_bars.hpp"
#include "support/cli_run.hpp"
#include "support/convert.hpp"

namespace femc {
namespace {

using R = mpfr_real;

R num(const char* text) { return ScalarTraits<R>::parse(text); }

models::PlanarModel<R> model_file(const char* name) {
  const ModelText text = read_model_text(test::slurp(std::string(FEMC_MODELS) + "/examples/" + name));
  return to_planar_model<R>(std::get<PlanarModelText>(text));
}

double worst(const Matrix<R>& X) { return X.size() ? test::as_double(R(X.cwiseAbs().maxCoeff())) : 0.0; }

class ContactModels : public ::testing::Test {
 protected:
  MpfrPrecision bits{256};
  R u = unit_roundoff<R>();
};

// Same coordinates: every matrix equal to a few rounding errors of its
// entries (each is a product or sum of ≤ 3 rounded terms: 4u of the largest
// entry covers it); a term dropped from either side is O(1).
TEST_F(ContactModels, Y3_TheModelFileIsTheHandWrittenModel) {
  const models::PlanarModel<R> m = model_file("sliding_bar.json");
  const systems::SlidingBar<R> hand{R(1), R(1), num("9.81"), R(1) / R(2)};
  // Off the ground and spinning: the formulas hold at every state.
  Vector<R> q(3), qd(3);
  q << num("0.3"), num("0.9"), num("0.7");
  qd << num("-1"), num("0.5"), num("-0.3");
  const double tol = 4 * test::as_double(u) * 10;  // O(1) entries of size ≤ 10 (g)
  EXPECT_LE(worst(Matrix<R>(models::mass_matrix(m) - hand.mass(q))), tol);
  EXPECT_LE(worst(Vector<R>(models::applied_forces(m, q) - hand.applied(q, qd))), tol);
  EXPECT_LE(worst(Vector<R>(models::contact_gaps(m, q) - hand.gaps(q))), tol);
  EXPECT_LE(test::as_double(R(abs(R(models::potential(m, q) - hand.potential(q))))), tol);
  const contact::ContactData<R> cm = models::contact_data(m, q, qd), ch = hand.contact_data(q, qd);
  EXPECT_LE(worst(Matrix<R>(cm.WN - ch.WN)), tol);
  EXPECT_LE(worst(Vector<R>(cm.WbarN - ch.WbarN)), tol);
  EXPECT_LE(worst(Matrix<R>(cm.Wt - ch.Wt)), tol);
  EXPECT_LE(worst(Vector<R>(cm.WbarT - ch.WbarT)), tol);
  EXPECT_EQ(worst(Vector<R>(cm.s - ch.s)), 0.0);
  EXPECT_EQ(worst(Vector<R>(cm.mu - ch.mu)), 0.0);
  ASSERT_NE(worst(ch.WbarN), 0.0) << "the state exercises the velocity-product terms";
  // Without joints the joint-aware contact problem is 003 (22)'s: cod's
  // solve with an empty A against the Cholesky of M. Both apply M⁻¹
  // (diagonal) and one product with W_N, a few roundings each.
  const auto p0 = contact::make_unilateral_problem(hand.mass(q), hand.applied(q, qd), ch);
  const auto p1 = contact::make_unilateral_problem(models::system_at(m, q, qd), cm);
  EXPECT_LE(worst(Matrix<R>(p1.A - p0.A)), tol);
  EXPECT_LE(worst(Vector<R>(p1.B - p0.B)), tol);
}

// ψ, J and J̇q̇ of the header, l the bars' length.
struct TwoBarsMap {
  R l;
  Vector<R> q(const Vector<R>& qh) const {
    using std::cos;
    using std::sin;
    const R h = l / R(2), pi = R(4) * atan(R(1));
    Vector<R> qm(6);
    qm << qh(0), qh(1), qh(2), qh(0) + h * cos(qh(2)) + h * sin(qh(3)), qh(1) + h * sin(qh(2)) - h * cos(qh(3)),
        qh(3) - pi / R(2);
    return qm;
  }
  Matrix<R> J(const Vector<R>& qh) const {
    using std::cos;
    using std::sin;
    const R h = l / R(2);
    Matrix<R> J = Matrix<R>::Zero(6, 4);
    J(0, 0) = J(1, 1) = J(2, 2) = J(5, 3) = R(1);
    J(3, 0) = R(1), J(3, 2) = -h * sin(qh(2)), J(3, 3) = h * cos(qh(3));
    J(4, 1) = R(1), J(4, 2) = h * cos(qh(2)), J(4, 3) = h * sin(qh(3));
    return J;
  }
  Vector<R> Jdot_qd(const Vector<R>& qh, const Vector<R>& qdh) const {
    using std::cos;
    using std::sin;
    const R h = l / R(2), w1 = qdh(2) * qdh(2), w2 = qdh(3) * qdh(3);
    Vector<R> a = Vector<R>::Zero(6);
    a(3) = -h * cos(qh(2)) * w1 - h * sin(qh(3)) * w2;
    a(4) = -h * sin(qh(2)) * w1 + h * cos(qh(3)) * w2;
    return a;
  }
};

// The contact problem of the model (hinge as constraints) against the hand
// model's at one state. Bound: cod's forward error c·u·(κ(B) + κ(M))
// (conditioning study: c ≤ 8.6, taken as 64 to cover the products with W_N)
// relative to the size |W_N|·|q̈| of each product, plus the hand side's
// Cholesky solve, c·u·κ(M_h) of the same size.
void expect_same_contact_problem(const models::PlanarModel<R>& m, const systems::TwoBars<R>& hand,
                                 const Vector<R>& qh, const Vector<R>& qdh, const char* where) {
  const TwoBarsMap map{hand.l};
  const Vector<R> qm = map.q(qh), qdm = map.J(qh) * qdh;
  const System<R> joints = models::system_at(m, qm, qdm);
  const contact::ContactData<R> cm = models::contact_data(m, qm, qdm), ch = hand.contact_data(qh, qdh);
  const auto pm = contact::make_unilateral_problem(joints, cm);
  const auto ph = contact::make_unilateral_problem(hand.mass(qh), hand.applied(qh, qdh), ch);
  const Solution<R> sol = solve(joints);
  const Eigen::JacobiSVD<Matrix<R>> svd(hand.mass(qh));
  const R kappa_h = svd.singularValues()(0) / svd.singularValues()(3);
  const R size = R(1) + ph.A.cwiseAbs().maxCoeff() + ph.B.cwiseAbs().maxCoeff();
  const double bound =
      test::as_double(R(R(64) * unit_roundoff<R>() * (*sol.diagnostics.kappa_B + *sol.diagnostics.kappa_M + kappa_h) *
                        size * R(10)));  // 10: |W_N|·|q̈| ≤ 10·(|A| + |B| + 1) here (|W_N| ≤ l = 2, g ≈ 10)
  const double err = std::max(worst(Matrix<R>(pm.A - ph.A)), worst(Vector<R>(pm.B - ph.B)));
  EXPECT_LE(err, bound) << where;
  std::cout << where << ": |ΔA|, |ΔB| ≤ " << err << " against the bound " << bound << " (slack "
            << (err > 0 ? bound / err : INFINITY) << ")\n";
  // The check sees a model without its hinge: the bars fall apart.
  const auto free = contact::make_unilateral_problem(models::mass_matrix(m), models::applied_forces(m, qm), cm);
  EXPECT_GT(std::max(worst(Matrix<R>(free.A - ph.A)), worst(Vector<R>(free.B - ph.B))), 1e-2) << where;
}

TEST_F(ContactModels, Y4_TheModelFileIsTheHandWrittenModelInItsCoordinates) {
  const models::PlanarModel<R> m = model_file("two_bars.json");
  const systems::TwoBars<R> hand{R(2), R(2), num("9.8"), num("0.2")};
  const TwoBarsMap map{hand.l};
  // A generic state, off the ground, both bars turning.
  Vector<R> qh(4), qdh(4);
  qh << num("0.3"), num("0.9"), num("0.7"), num("0.4");
  qdh << num("-1"), num("0.5"), num("-0.3"), num("0.8");
  const Vector<R> qm = map.q(qh), qdm = map.J(qh) * qdh, a = map.Jdot_qd(qh, qdh);
  const Matrix<R> J = map.J(qh);
  // The hinge holds along ψ, and J spans its null space.
  const double tol = 64 * test::as_double(u) * 10;  // O(1) entries, sums of ≤ 6 products of size ≤ 10
  EXPECT_LE(worst(models::constraints(m, qm)), tol);
  EXPECT_LE(worst(Matrix<R>(models::constraint_jacobian(m, qm) * J)), tol);
  const Matrix<R> Mm = models::mass_matrix(m);
  EXPECT_LE(worst(Matrix<R>(J.transpose() * Mm * J - hand.mass(qh))), tol);
  EXPECT_LE(worst(Vector<R>(J.transpose() * (models::applied_forces(m, qm) - Mm * a) - hand.applied(qh, qdh))), tol);
  EXPECT_LE(test::as_double(R(abs(R(models::potential(m, qm) - hand.potential(qh))))), tol);
  EXPECT_LE(worst(Vector<R>(models::contact_gaps(m, qm) - hand.gaps(qh))), tol);
  const contact::ContactData<R> cm = models::contact_data(m, qm, qdm), ch = hand.contact_data(qh, qdh);
  EXPECT_LE(worst(Matrix<R>(cm.WN * J - ch.WN)), tol);
  EXPECT_LE(worst(Vector<R>(cm.WbarN + cm.WN * a - ch.WbarN)), tol);
  EXPECT_LE(worst(Matrix<R>(cm.Wt * J - ch.Wt)), tol);
  EXPECT_LE(worst(Vector<R>(cm.WbarT + cm.Wt * a - ch.WbarT)), tol);
  EXPECT_EQ(worst(Vector<R>(cm.s - ch.s)), 0.0);
  EXPECT_EQ(worst(Vector<R>(cm.mu - ch.mu)), 0.0);
  // Leaving out the velocity-product map J̇q̇ must fail.
  EXPECT_GT(worst(Vector<R>(J.transpose() * models::applied_forces(m, qm) - hand.applied(qh, qdh))), 1e-2);
  expect_same_contact_problem(m, hand, qh, qdh, "generic state");
}

// The disagreement of the QP and the LCP at μ = 0.9 (test_contact_systems,
// Y4_QpAndLcpDisagreeAtLargeFriction) from the model file: both feet down,
// sin θ₁ = cos θ₂ = 12/13, sliding to the right.
TEST_F(ContactModels, Y4_TheModelFileShowsTheQpLcpDisagreement) {
  models::PlanarModel<R> m = model_file("two_bars.json");
  for (auto& c : m.contacts) c.friction = num("0.9");
  const systems::TwoBars<R> hand{R(2), R(2), num("9.8"), num("0.9")};
  const R th1 = asin(R(12) / R(13)), th2 = acos(R(12) / R(13));
  Vector<R> qh(4), qdh(4);
  qh << R(0), sin(th1), th1, th2;
  qdh << R(1), R(0), R(0), R(0);
  expect_same_contact_problem(m, hand, qh, qdh, "both feet sliding, mu = 0.9");
  const TwoBarsMap map{hand.l};
  const Vector<R> qm = map.q(qh), qdm = map.J(qh) * qdh;
  const auto p = contact::make_unilateral_problem(models::system_at(m, qm, qdm), models::contact_data(m, qm, qdm));
  const auto lcp = contact::enumerate_lcp(p.A, p.B);
  const auto qp = contact::solve_gauss_qp(p.A, p.B);
  ASSERT_EQ(lcp.status, contact::LcpStatus::Unique);
  ASSERT_EQ(qp.status, contact::QpStatus::Unique);
  const Vector<R>& l = lcp.solutions.front();
  const int lifted = l(0) == R(0) ? 0 : 1;
  EXPECT_EQ(l(lifted), R(0)) << "the LCP lifts one foot";
  EXPECT_LT(test::as_double(qp.lambda(lifted)), -1e-3) << "the QP pulls it down";
}

}  // namespace
}  // namespace femc
