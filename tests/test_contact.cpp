// Unilateral contact with Coulomb friction (003 Section 3), at double and at
// 256-bit MPFR: the LCP (enumeration and Lemke) against the Gauss QP (Y2),
// the sliding bar's closed form (Y3) on both sides of the Painlevé limit
// μ = 4/3, and the stick/slip resolution.
//
// Bounds. k ≤ 3 contacts with O(1) data; λ solves a k×k system with
// condition number κ (computed in double), so agreement of two methods is
// checked to 64·k²·κ·u·(1 + ‖λ‖∞) (a backward-stable k×k solve has relative
// forward error ≲ c·k·κ·u; the 64k² covers the forming of A and B).
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <cmath>
#include <optional>
#include <random>

#include "femc/contact/contact_modes.hpp"
#include "femc/contact/gauss_qp.hpp"
#include "femc/contact/lcp.hpp"
#include "femc/contact/unilateral_problem.hpp"
#include "femc/scalar/builtin.hpp"
#include "femc/scalar/mpfr.hpp"
#include "femc/systems/sliding_bar.hpp"
#include "support/convert.hpp"

namespace femc {
namespace {

using namespace contact;

// Is λ a solution of the LCP (λ ≥ 0, w = Aλ + B ≥ 0, λᵢwᵢ = 0) to within tol?
// The independent referee of every solver below.
template <class S>
bool solves_lcp(const Matrix<S>& A, const Vector<S>& B, const Vector<S>& lambda, const S& tol) {
  const Vector<S> w = A * lambda + B;
  for (Index i = 0; i < B.size(); ++i) {
    if (lambda(i) < -tol || w(i) < -tol) return false;
    const S li = lambda(i) < S(0) ? S(-lambda(i)) : lambda(i);
    const S wi = w(i) < S(0) ? S(-w(i)) : w(i);
    if (li > tol && wi > tol) return false;
  }
  return true;
}

template <class S>
class Contact : public ::testing::Test {
 protected:
  std::optional<MpfrPrecision> bits;
  void SetUp() override {
    if constexpr (std::is_same_v<S, mpfr_real>) bits.emplace(256);
  }
  static double dbl(const S& x) { return test::as_double(x); }
  static S max_abs(const Vector<S>& v) { return detail::max_abs(v); }
  // Random data drawn in double (exactly representable in S).
  static Matrix<S> random_matrix(std::mt19937& rng, Index r, Index c) {
    std::uniform_real_distribution<double> U(-1, 1);
    Matrix<S> X(r, c);
    for (Index i = 0; i < r; ++i)
      for (Index j = 0; j < c; ++j) X(i, j) = S(U(rng));
    return X;
  }
  static double kappa(const Matrix<S>& A) {
    Eigen::MatrixXd Ad(A.rows(), A.cols());
    for (Index i = 0; i < A.rows(); ++i)
      for (Index j = 0; j < A.cols(); ++j) Ad(i, j) = dbl(A(i, j));
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(Ad);
    return svd.singularValues()(0) / svd.singularValues()(Ad.rows() - 1);
  }
  static S bound(Index k, double kappa, const Vector<S>& lambda) {
    return S(64 * k * k) * S(kappa) * unit_roundoff<S>() * (S(1) + max_abs(lambda));
  }
  // A contact problem 003 (22) from random geometry: n coordinates, k contacts.
  static UnilateralProblem<S> random_problem(std::mt19937& rng, Index n, Index k, double mu) {
    const Matrix<S> R = random_matrix(rng, n, n);
    const Matrix<S> M = R * R.transpose() + Matrix<S>::Identity(n, n);
    ContactData<S> d;
    d.WN = random_matrix(rng, k, n);
    d.Wt = random_matrix(rng, k, n);
    d.WbarN = random_matrix(rng, k, 1).col(0);
    d.WbarT = random_matrix(rng, k, 1).col(0);
    d.mu = Vector<S>::Constant(k, S(mu));
    d.s = random_matrix(rng, k, 1).col(0);
    for (Index i = 0; i < k; ++i) d.s(i) = d.s(i) > S(0) ? S(1) : S(-1);
    return make_unilateral_problem<S>(M, random_matrix(rng, n, 1).col(0), d);
  }
};

using Precisions = ::testing::Types<double, mpfr_real>;
TYPED_TEST_SUITE(Contact, Precisions);

// Y2 — 003 (33)–(36): without friction A = W_N M⁻¹ W_Nᵀ is symmetric
// positive definite, the LCP has exactly one solution, and the Gauss QP's
// minimizer is it. Enumeration, Lemke and the QP agree.
TYPED_TEST(Contact, Y2_FrictionlessLcpAndGaussQpAgree) {
  using S = TypeParam;
  std::mt19937 rng(20261122);
  for (int trial = 0; trial < 60; ++trial) {
    const Index k = 1 + trial % 3, n = k + 1 + trial % 4;
    const UnilateralProblem<S> p = this->random_problem(rng, n, k, 0.0);
    const auto all = enumerate_lcp(p.A, p.B);
    const auto lem = lemke(p.A, p.B);
    const auto qp = solve_gauss_qp(p.A, p.B);
    ASSERT_EQ(all.status, LcpStatus::Unique) << "trial " << trial;
    ASSERT_EQ(lem.status, LemkeStatus::Solved) << "trial " << trial;
    ASSERT_EQ(qp.status, QpStatus::Unique) << "trial " << trial;
    const Vector<S>& lambda = all.solutions.front();
    const S tol = this->bound(k, this->kappa(p.A), lambda);
    EXPECT_TRUE(solves_lcp<S>(p.A, p.B, lambda, tol)) << "trial " << trial;
    EXPECT_LE(this->dbl(this->max_abs(Vector<S>(lem.lambda - lambda))), this->dbl(tol)) << "Lemke, trial " << trial;
    EXPECT_LE(this->dbl(this->max_abs(Vector<S>(qp.lambda - lambda))), this->dbl(tol)) << "QP, trial " << trial;
  }
}

// Y2 with friction, one contact: A is 1×1 and the equivalence holds for any μ
// where A > 0 (the derivation 003 (34) needs ∇(½λᵀAλ) = Aλ, true for k = 1).
TYPED_TEST(Contact, Y2_OneFrictionalContactAgrees) {
  using S = TypeParam;
  std::mt19937 rng(7);
  int compared = 0;
  for (int trial = 0; trial < 80; ++trial) {
    const UnilateralProblem<S> p = this->random_problem(rng, 3, 1, 0.9);
    const auto all = enumerate_lcp(p.A, p.B);
    const auto qp = solve_gauss_qp(p.A, p.B);
    if (p.A(0, 0) > S(0)) {
      ASSERT_EQ(all.status, LcpStatus::Unique);
      ASSERT_EQ(qp.status, QpStatus::Unique);
      EXPECT_LE(this->dbl(this->max_abs(Vector<S>(qp.lambda - all.solutions.front()))),
                this->dbl(this->bound(1, 1.0, qp.lambda)));
      ++compared;
    } else {
      EXPECT_EQ(qp.status, QpStatus::Unbounded);
      EXPECT_NE(all.status, LcpStatus::Unique);
    }
  }
  EXPECT_GT(compared, 40);
}

// Beyond the paper: with friction and two contacts A is not symmetric and
// 003's step from the QP to the LCP (stationarity Aλ = Aᵀν) fails. Here a
// P-matrix A (unique LCP solution) with a positive definite symmetric part
// (unique QP minimizer) where the QP's λ has a negative — adhesive — normal
// force at the separating contact: it violates the LCP that 003 says it
// solves. The referee solves_lcp must reject it (a check that can fail).
TYPED_TEST(Contact, Y2_FrictionBreaksTheEquivalence) {
  using S = TypeParam;
  Matrix<S> A(2, 2);
  A << S(7) / S(4), S(-3) / S(4), S(-7) / S(8), S(1);
  Vector<S> B(2);
  B << S(4) / S(5), S(-1) / S(10);
  const auto all = enumerate_lcp(A, B);
  const auto qp = solve_gauss_qp(A, B);
  ASSERT_EQ(all.status, LcpStatus::Unique);
  ASSERT_EQ(qp.status, QpStatus::Unique);
  // LCP: contact 1 separates (λ₁ = 0, w₁ = 29/40), contact 2 pushes λ₂ = 1/10.
  Vector<S> expected(2);
  expected << S(0), S(1) / S(10);
  const S tol = this->bound(2, this->kappa(A), expected);
  EXPECT_LE(this->dbl(this->max_abs(Vector<S>(all.solutions.front() - expected))), this->dbl(tol));
  EXPECT_LT(qp.lambda(0), -tol) << "the QP pulls at contact 1";
  EXPECT_FALSE(solves_lcp<S>(A, B, qp.lambda, tol));
}

// Lemke against enumeration on random P-matrices (A = W_N M⁻¹(W_Nᵀ + W_tᵀSU)
// with small μ: symmetric part positive definite, hence a P-matrix).
TYPED_TEST(Contact, LemkeFindsTheUniqueSolutionOfPMatrices) {
  using S = TypeParam;
  std::mt19937 rng(11);
  int checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Index k = 2 + trial % 2;
    const UnilateralProblem<S> p = this->random_problem(rng, k + 2, k, 0.1);
    const Matrix<S> As = (p.A + p.A.transpose()) / S(2);
    if (Eigen::LLT<Matrix<S>>(As).info() != Eigen::Success) continue;
    const auto all = enumerate_lcp(p.A, p.B);
    const auto lem = lemke(p.A, p.B);
    ASSERT_EQ(all.status, LcpStatus::Unique);
    ASSERT_EQ(lem.status, LemkeStatus::Solved);
    EXPECT_LE(this->dbl(this->max_abs(Vector<S>(lem.lambda - all.solutions.front()))),
              this->dbl(this->bound(k, this->kappa(p.A), lem.lambda)));
    ++checked;
  }
  EXPECT_GT(checked, 30);
}

// Y3 — 003 (27)–(32): A(θ, μ) = [1 + 3cosθ(cosθ − μ sinθ)]/m and
// B = lθ̇² sinθ − g, for the bar sliding to the left (ẋ_A < 0), from the
// generic 003 (22) on the model's M, Q, W_N, W̄_N, W_t.
TYPED_TEST(Contact, Y3_SlidingBarClosedForm) {
  using S = TypeParam;
  using std::cos;
  using std::sin;
  for (const char* mu_text : {"0", "0.5", "1.2", "1.5"}) {
    const S mu = ScalarTraits<S>::parse(mu_text);
    const systems::SlidingBar<S> bar{S(3) / S(2), S(7) / S(10), S(981) / S(100), mu};
    for (int i = 1; i < 12; ++i) {
      const S th = S(i) / S(8), thd = S(i % 4) - S(1);
      Vector<S> q(3), qd(3);
      q << S(0), bar.l * sin(th), th;
      qd << S(-1) - bar.l * sin(th) * thd, bar.l * cos(th) * thd, thd;  // ẋ_A = −1, ẏ_A = 0
      const auto d = bar.contact_data(q, qd);
      ASSERT_EQ(d.s(0), S(1)) << "friction pushes +x while A slides left";
      const auto p = make_unilateral_problem<S>(bar.mass(q), bar.applied(q, qd), d);
      const S A = (S(1) + S(3) * cos(th) * (cos(th) - mu * sin(th))) / bar.m;
      const S B = bar.l * thd * thd * sin(th) - bar.g;
      const S tol = S(64) * unit_roundoff<S>() * (S(1) + (A < S(0) ? S(-A) : A) + (B < S(0) ? S(-B) : B));
      EXPECT_LE(this->dbl(S(p.A(0, 0) - A) < S(0) ? S(A - p.A(0, 0)) : S(p.A(0, 0) - A)), this->dbl(tol))
          << "A at θ = " << this->dbl(th) << ", μ = " << mu_text;
      EXPECT_LE(this->dbl(S(p.B(0) - B) < S(0) ? S(B - p.B(0)) : S(p.B(0) - B)), this->dbl(tol));
    }
  }
}

// Y3 on both sides of μ = 4/3: min over θ of A(θ, μ) is
// [1 + 3(½ − ½√(1 + μ²))]/m, negative iff μ > 4/3, at θ* = (π − atan μ)/2.
// Below: a unique LCP solution equal to the QP's minimizer at every θ.
// Above, at θ*: B > 0 gives two LCP solutions (0 and −B/A), B < 0 none; the
// QP is unbounded in both cases; Lemke ends on a ray when there is none.
TYPED_TEST(Contact, Y3_PainleveBothSidesOfFourThirds) {
  using S = TypeParam;
  using std::atan;
  using std::cos;
  using std::sin;
  using std::acos;
  const S pi = acos(S(-1));
  const S m(1), l(1), g = S(981) / S(100);
  auto problem = [&](const S& mu, const S& th, const S& thd) {
    const systems::SlidingBar<S> bar{m, l, g, mu};
    Vector<S> q(3), qd(3);
    q << S(0), l * sin(th), th;
    qd << S(-1) - l * sin(th) * thd, l * cos(th) * thd, thd;
    return make_unilateral_problem<S>(bar.mass(q), bar.applied(q, qd), bar.contact_data(q, qd));
  };
  const S below = S(6) / S(5);  // 1.2 < 4/3
  for (int i = 1; i < 40; ++i) {
    const S th = pi / S(2) * S(i) / S(40);
    for (const S thd : {S(0), S(5)}) {
      const auto p = problem(below, th, thd);
      ASSERT_GT(p.A(0, 0), S(0));
      const auto all = enumerate_lcp(p.A, p.B);
      const auto qp = solve_gauss_qp(p.A, p.B);
      ASSERT_EQ(all.status, LcpStatus::Unique);
      ASSERT_EQ(qp.status, QpStatus::Unique);
      EXPECT_LE(this->dbl(this->max_abs(Vector<S>(qp.lambda - all.solutions.front()))),
                this->dbl(this->bound(1, 1.0, qp.lambda)));
    }
  }
  const S above = S(3) / S(2);  // 1.5 > 4/3
  const S th_star = (pi - atan(above)) / S(2);
  // B = l θ̇² sinθ − g: θ̇ = 5 makes it positive, θ̇ = 0 negative.
  const auto two = problem(above, th_star, S(5));
  ASSERT_LT(two.A(0, 0), S(0));
  ASSERT_GT(two.B(0), S(0));
  const auto all2 = enumerate_lcp(two.A, two.B);
  EXPECT_EQ(all2.status, LcpStatus::Multiple);
  ASSERT_EQ(all2.solutions.size(), 2u);
  EXPECT_EQ(solve_gauss_qp(two.A, two.B).status, QpStatus::Unbounded);
  const auto none = problem(above, th_star, S(0));
  ASSERT_LT(none.B(0), S(0));
  EXPECT_EQ(enumerate_lcp(none.A, none.B).status, LcpStatus::None);
  EXPECT_EQ(solve_gauss_qp(none.A, none.B).status, QpStatus::Unbounded);
  EXPECT_EQ(lemke(none.A, none.B).status, LemkeStatus::SecondaryRay);
}

// Beyond 003: a bar leaning at rest (no slip velocity) sticks for large μ and
// slips for small μ; the resolver's answer is unique and satisfies the
// Coulomb law (|F_t| ≤ μF_n when sticking, ẍ_A = 0; F_t = ∓μF_n opposing
// the slip acceleration otherwise).
TYPED_TEST(Contact, StickOrSlipFromRest) {
  using S = TypeParam;
  using std::cos;
  using std::sin;
  for (const bool sticky : {true, false}) {
    const S mu = sticky ? S(2) : S(1) / S(20);
    const systems::SlidingBar<S> bar{S(1), S(1), S(981) / S(100), mu};
    const S th = S(1);  // ≈ 57°
    Vector<S> q(3), qd = Vector<S>::Zero(3);
    q << S(0), sin(th), th;
    const auto d = bar.contact_data(q, qd);
    const auto r = resolve_contact_modes<S>(bar.mass(q), bar.applied(q, qd), d, d.Wt * qd, S(1) / S(1000000));
    ASSERT_EQ(r.status, LcpStatus::Unique);
    const S xdd_A = d.Wt.row(0).dot(r.qdd) + d.WbarT(0), ydd_A = d.WN.row(0).dot(r.qdd) + d.WbarN(0);
    // Rounding bound of ÿ_A = W_N q̈ + W̄_N (and of ẍ_A): the resolver's
    // c·u·(|W||q̈| + |W̄|) with c = 4(k+1) = 8 (contact_modes.hpp), times 8
    // for the solve that produced q̈ (κ of this 2×2 system is O(1)).
    const S tol = S(64) * unit_roundoff<S>() *
                  std::max<S>((d.WN.cwiseAbs() * r.qdd.cwiseAbs())(0) + d.WbarN.cwiseAbs()(0),
                              (d.Wt.cwiseAbs() * r.qdd.cwiseAbs())(0) + d.WbarT.cwiseAbs()(0));
    EXPECT_LE(this->dbl(ydd_A < S(0) ? S(-ydd_A) : ydd_A), this->dbl(tol)) << "A stays on the ground";
    EXPECT_GT(r.normal(0), S(0));
    if (sticky) {
      EXPECT_EQ(r.modes[0], ContactMode::Stick);
      EXPECT_LE(this->dbl(xdd_A < S(0) ? S(-xdd_A) : xdd_A), this->dbl(tol));
      EXPECT_LE(r.friction(0) < S(0) ? S(-r.friction(0)) : r.friction(0), mu * r.normal(0));
    } else {
      EXPECT_NE(r.modes[0], ContactMode::Stick);
      const S ft = r.friction(0) < S(0) ? S(-r.friction(0)) : r.friction(0);
      EXPECT_LE(this->dbl(S(ft - mu * r.normal(0))), this->dbl(tol));
      EXPECT_LE(r.friction(0) * xdd_A, S(0)) << "friction opposes the slip";
      EXPECT_GT(xdd_A < S(0) ? S(-xdd_A) : xdd_A, tol);
    }
  }
}

}  // namespace
}  // namespace femc
